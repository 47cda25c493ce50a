#include <sys/resource.h>

#include <array>
#include <atomic>
#include <cmath>
#include <optional>
#include <thread>
#include <tuple>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/clock_text.h"
#include "core/csv_cursor.h"
#include "core/diagnostic.h"
#include "core/memory_policy.h"
#include "core/ids.h"
#include "core/result.h"
#include "core/rng.h"
#include "core/suggest.h"
#include "core/text.h"
#include "core/text_lines.h"
#include "core/text_source.h"
#include "core/threads.h"
#include "core/units.h"
#include "support/text_pieces.h"

namespace ct {
namespace {

TEST(Units, ParsesSpeeds) {
  EXPECT_EQ(parse_speed("800G").value().value(), 800'000'000'000);
  EXPECT_EQ(parse_speed("1.6T").value().value(), 1'600'000'000'000);
  EXPECT_EQ(parse_speed("25").value(), gbps(25));
  EXPECT_EQ(parse_speed("400Gbps").value(), gbps(400));
  EXPECT_FALSE(parse_speed("fast").ok());
  EXPECT_FALSE(parse_speed("-400G").ok());
  EXPECT_FALSE(parse_speed("400X").ok());
  EXPECT_FALSE(parse_speed("nanG").ok());
  EXPECT_EQ(parse_speed("400X").errors().front().message, "'400X' is not a speed; write e.g. 400G or 1.6T");
  EXPECT_EQ(format_speed(gbps(800)), "800G");
  EXPECT_EQ(format_speed(gbps(1600)), "1.6T");
}

// The limits of core/units.h: 1 Pb/s = 1000T is the largest speed (2^64 G = 1.8e28 b/s is far
// above it and must not wrap to a negative speed); 10^18 bytes the largest size; 10^18 ps the
// longest duration.
TEST(Units, RefusesWhatWouldOverflow) {
  EXPECT_EQ(parse_speed("1000T").value(), kMaxSpeed);
  EXPECT_EQ(parse_speed("1000.001T").errors().front().message,
            "'1000.001T' is above the largest speed this tool models, 1000T");
  EXPECT_FALSE(parse_speed("18446744073709551616G").ok());
  EXPECT_FALSE(parse_speed("1e999G").ok());
  EXPECT_EQ(parse_size("1000PB").ok(), false);  // no such unit
  EXPECT_EQ(parse_size("1000000TB").value(), kMaxBytes);  // 10^6 x 10^12
  EXPECT_FALSE(parse_size("1000001TB").ok());
  EXPECT_FALSE(parse_size("nan").ok());
  EXPECT_FALSE(parse_size("inf").ok());
  EXPECT_EQ(parse_duration("1000000s").value(), kMaxDuration);  // 10^6 s = 10^18 ps
  EXPECT_FALSE(parse_duration("1000001s").ok());
  EXPECT_FALSE(parse_duration("9223372036854775807ns").ok());
}

// Sizes: powers of 1000 and 1024 worked by hand.
TEST(Units, ParsesSizesAndDurations) {
  EXPECT_EQ(parse_size("1GiB").value(), Bytes(1LL << 30));
  EXPECT_EQ(parse_size("2.5 MB").value(), Bytes(2'500'000));
  EXPECT_EQ(parse_size("4096").value(), Bytes(4096));
  EXPECT_FALSE(parse_size("3 parsecs").ok());
  EXPECT_FALSE(parse_size("").ok());
  EXPECT_EQ(parse_duration("250us").value(), TimePs(250'000'000));
  EXPECT_EQ(parse_duration("1.5 ms").value(), TimePs(1'500'000'000));
  EXPECT_EQ(parse_duration("2s").value(), TimePs(2'000'000'000'000));
  EXPECT_EQ(parse_duration("0").value(), TimePs(0));
  EXPECT_FALSE(parse_duration("5").ok());  // a number without a unit is only allowed for 0
  EXPECT_FALSE(parse_duration("-1us").ok());
  EXPECT_FALSE(parse_duration("3 fortnights").ok());
}

TEST(Ids, AreDistinctAndInvalidByDefault) {
  VertexId v;
  EXPECT_FALSE(v.valid());
  EXPECT_TRUE(VertexId(3).valid());
  EXPECT_LT(VertexId(2), VertexId(3));
  static_assert(!std::is_convertible_v<VertexId, LinkId>);
}

TEST(Diagnostics, FormatNamesFileLineField) {
  Diagnostic d{{"spec.yaml", 12, 3}, "backend.planes", "must be 1, 2 or 4"};
  EXPECT_EQ(format_diagnostic(d), "spec.yaml:12:3: error: backend.planes: must be 1, 2 or 4");
  Result<int> r(d);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.errors().size(), 1u);
  Result<int> ok(7);
  EXPECT_EQ(ok.value(), 7);
}

// Optimal string alignment distance, worked by hand: a swap of two adjacent letters is one edit
// ("plna" -> "plan": swap "na"); "kitten" -> "sitting" is k->s, e->i, +g = 3; "ca" -> "abc" is 3,
// not the 2 of the unrestricted Damerau distance (ca -> ac -> abc edits "ac" twice).
TEST(Suggest, EditDistanceCountsASwapAsOneEdit) {
  EXPECT_EQ(edit_distance("plna", "plan"), 1U);
  EXPECT_EQ(edit_distance("rnig", "ring"), 1U);
  EXPECT_EQ(edit_distance("spary", "spray"), 1U);
  EXPECT_EQ(edit_distance("ab", "ba"), 1U);
  EXPECT_EQ(edit_distance("hots3/gpu0", "host3/gpu0"), 1U);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3U);
  EXPECT_EQ(edit_distance("ca", "abc"), 3U);
  EXPECT_EQ(edit_distance("abcd", "badc"), 2U);  // two swaps
  EXPECT_EQ(edit_distance("", "abc"), 3U);
  EXPECT_EQ(edit_distance("abc", ""), 3U);
  EXPECT_EQ(edit_distance("same", "same"), 0U);
}

// The limit is a third of the word's length, at least 1: 5 letters allow 1 edit, 6 allow 2.
// Failing that, the only candidate the word begins (2 letters or more) is the one meant.
TEST(Suggest, ClosestMatchWithinAThirdOfTheWord) {
  const std::vector<std::string> commands = {"plan", "topology", "simulate", "sweep"};
  EXPECT_EQ(closest_match("plna", commands), "plan");
  EXPECT_EQ(closest_match("sweeep", commands), "sweep");
  EXPECT_EQ(closest_match("frob", commands), "");
  EXPECT_EQ(closest_match("abcde", {"abxye"}), "");       // 2 edits, 5 letters: limit 1
  EXPECT_EQ(closest_match("abcdef", {"abxyef"}), "abxyef");  // 2 edits, 6 letters: limit 2
  EXPECT_EQ(closest_match("jsn", {"dot", "json"}), "json");
  EXPECT_EQ(closest_match("ab", {"ba", "ab-x"}), "ba");    // ties and edits before prefixes
  EXPECT_EQ(closest_match("tst", {"test", "tost"}), "test");  // a tie: the first listed
  EXPECT_EQ(closest_match("cut", {"cut-through", "store-and-forward"}), "cut-through");
  EXPECT_EQ(closest_match("edg", {"infra/edge", "edge", "edge"}), "edge");
  EXPECT_EQ(closest_match("all", {"all-reduce", "all-gather"}), "");  // begins two: neither
  EXPECT_EQ(closest_match("c", {"cut-through"}), "");
  EXPECT_EQ(did_you_mean("plna", commands), " (did you mean 'plan'?)");
  EXPECT_EQ(did_you_mean("frob", commands), "");
}

TEST(Rng, SameCoordinatesSameSequence) {
  Rng a(42, 1, 7), b(42, 1, 7), c(42, 1, 8), d(42, 2, 7);
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next_u64();
    EXPECT_EQ(x, b.next_u64());
    EXPECT_NE(x, c.next_u64());
    EXPECT_NE(x, d.next_u64());
  }
}

// A chi-square test of uniform(8) over 80,000 draws: 7 degrees of freedom, the 99.9% quantile is
// 24.32, so a correct generator fails this with probability 0.001 (and this seed is fixed).
TEST(Rng, UniformIsUniform) {
  Rng r(1, 0, 0);
  std::array<int, 8> counts{};
  constexpr int kDraws = 80'000;
  for (int i = 0; i < kDraws; ++i) ++counts[r.uniform(8)];
  double chi2 = 0;
  for (int c : counts) chi2 += std::pow(c - kDraws / 8.0, 2) / (kDraws / 8.0);
  EXPECT_LT(chi2, 24.32);
}

// The mean of n exponential(rate) draws is 1/rate with standard error 1/(rate sqrt(n)).
TEST(Rng, ExponentialMean) {
  Rng r(9, 0, 0);
  constexpr int kN = 100'000;
  double sum = 0;
  for (int i = 0; i < kN; ++i) sum += r.exponential(2.0);
  EXPECT_NEAR(sum / kN, 0.5, 4 * 0.5 / std::sqrt(kN));
}

}  // namespace
}  // namespace ct

namespace ct {
namespace {

// "a\r\n\nb" is three lines: "a" (its '\r' dropped), "" and "b" (no final newline), numbered 1-3;
// a text that ends in '\n' has no empty line after it.
TEST(LineCursor, NumbersLinesAndDropsCarriageReturns) {
  LineCursor lines("a\r\n\nb");
  std::string_view line;
  std::vector<std::pair<std::string, int>> seen;
  while (lines.next(line)) seen.emplace_back(std::string(line), lines.number());
  const std::vector<std::pair<std::string, int>> expected = {{"a", 1}, {"", 2}, {"b", 3}};
  EXPECT_EQ(seen, expected);
  LineCursor ends("x\n");
  int count = 0;
  while (ends.next(line)) ++count;
  EXPECT_EQ(count, 1);
  LineCursor empty("");
  EXPECT_FALSE(empty.next(line));
}

// Each reader names what it trims: the default is spaces and tabs; kSpaceTabCr also drops '\r';
// kWhiteSpace is std::isspace's set; a leading and a trailing set may differ (a CSV cell keeps a
// leading '\r' and drops a trailing one). A blank text trims to "".
TEST(Text, TrimsTheNamedSet) {
  EXPECT_EQ(trim("  a b \t"), "a b");
  EXPECT_EQ(trim("ab"), "ab");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim(" a\r"), "a\r");
  EXPECT_EQ(trim(" a\r ", kSpaceTabCr), "a");
  EXPECT_EQ(trim("\n\v a\f\r", kWhiteSpace), "a");
  EXPECT_EQ(trim("\n a\n"), "\n a\n");
  EXPECT_EQ(trim("\r a \r", kSpaceTab, kSpaceTabCr), "\r a");
}

TEST(Text, LowerWordsAndTakeWord) {
  EXPECT_EQ(lower("Host-A.Example.COM"), "host-a.example.com");
  EXPECT_EQ(lower("\xC3\x89"), "\xC3\x89");  // bytes above ASCII are left alone
  EXPECT_EQ(words(" a\tbb  c "), (std::vector<std::string_view>{"a", "bb", "c"}));
  EXPECT_TRUE(words(" \t").empty());
  EXPECT_EQ(words("a\rb"), (std::vector<std::string_view>{"a\rb"}));
  std::string_view rest = "host3/nic1";
  EXPECT_TRUE(take_word(rest, "host"));
  EXPECT_EQ(rest, "3/nic1");
  EXPECT_FALSE(take_word(rest, "/nic"));
  EXPECT_EQ(rest, "3/nic1");
  EXPECT_TRUE(take_word(rest, ""));
  long long n = 0;
  EXPECT_TRUE(take_number(rest, n));
  EXPECT_EQ(n, 3);
  EXPECT_EQ(rest, "/nic1");
  EXPECT_FALSE(take_number(rest, n));
  EXPECT_TRUE(all_digits("0123"));
  EXPECT_FALSE(all_digits(""));
  EXPECT_FALSE(all_digits("12a"));
  EXPECT_FALSE(all_digits("-1"));
}

TEST(Text, FixedIsPrintfsFixedNotation) {
  // By hand: ties go to the even neighbour of the binary value (0.125 is exact: "0.12"; 0.375:
  // "0.38"; 2.5: "2"), 1.005 is stored as 1.00499999999999989...: "1.00"; a small negative rounds to
  // "-0.00"; a carry runs through the integer part.
  EXPECT_EQ(fixed(0.125, 2), "0.12");
  EXPECT_EQ(fixed(0.375, 2), "0.38");
  EXPECT_EQ(fixed(2.5, 0), "2");
  EXPECT_EQ(fixed(3.5, 0), "4");
  EXPECT_EQ(fixed(1.005, 2), "1.00");
  EXPECT_EQ(fixed(-0.001, 2), "-0.00");
  EXPECT_EQ(fixed(-0.0, 1), "-0.0");
  EXPECT_EQ(fixed(99.996, 2), "100.00");
  EXPECT_EQ(fixed(40.0704, 2), "40.07");
  EXPECT_EQ(fixed(0.0694926, 3), "0.069");
  EXPECT_EQ(fixed(12.0, 0), "12");
  std::string out = "x=";
  append_fixed(out, 1.5, 1);
  EXPECT_EQ(out, "x=1.5");
  // Against fmt (an implementation of its own: Dragon4 on the exact value) over magnitudes from
  // 1e-6 to 1e17, both signs, 0 to 10 decimals, and the values just beside ties.
  Rng rng(7, 0, 0);
  for (int i = 0; i < 200000; ++i) {
    const double magnitude = std::pow(10.0, -6.0 + 23.0 * rng.uniform01());
    double x = (rng.uniform01() < 0.5 ? -1 : 1) * magnitude;
    const int decimals = static_cast<int>(rng.uniform01() * 11);
    if (i % 4 == 1) x = std::nextafter(std::round(x * 1000.0) / 1000.0 + 0.0005, rng.uniform01() < 0.5 ? 0.0 : 1e300);
    if (i % 4 == 2) x = std::round(x * 8.0) / 8.0;
    ASSERT_EQ(fixed(x, decimals), fmt::format("{:.{}f}", x, decimals)) << x << " " << decimals;
  }
  for (const double x : {std::nan(""), HUGE_VAL, -HUGE_VAL, 1e300, 4503599627370495.5, 0x1p52}) {
    for (int d = 0; d < 4; ++d) EXPECT_EQ(fixed(x, d), fmt::format("{:.{}f}", x, d)) << x;
  }
}

// The cells of `line` as (text, column, width).
std::vector<std::tuple<std::string, int, int>> csv_cells(std::string_view line) {
  CsvCursor csv("t.csv", line);
  EXPECT_TRUE(csv.split(line));
  std::vector<std::tuple<std::string, int, int>> out;
  for (const CsvCell& c : csv.cells()) out.emplace_back(std::string(c.text), c.column, c.width);
  return out;
}
using CsvCells = std::vector<std::tuple<std::string, int, int>>;

// Plain cells: cut at each comma, spaces and tabs trimmed (a '\r' only at a cell's end), the
// column where the cell begins; an empty line is one empty cell. Lines longer than sixteen bytes
// take the fast path, shorter ones its tail; both cut alike.
TEST(CsvCursor, CutsAndTrimsPlainCells) {
  EXPECT_EQ(csv_cells("a, b ,\tc"), (CsvCells{{"a", 1, 1}, {"b", 3, 3}, {"c", 7, 2}}));
  EXPECT_EQ(csv_cells(""), (CsvCells{{"", 1, 0}}));
  EXPECT_EQ(csv_cells(",,"), (CsvCells{{"", 1, 0}, {"", 2, 0}, {"", 3, 0}}));
  EXPECT_EQ(csv_cells("x\r ,\ry"), (CsvCells{{"x", 1, 3}, {"\ry", 5, 2}}));
  EXPECT_EQ(csv_cells("0123456789abcdef,0123456789abcdefgh, z"),
            (CsvCells{{"0123456789abcdef", 1, 16}, {"0123456789abcdefgh", 18, 18}, {"z", 37, 2}}));
}

// RFC 4180 quoting: "" is one '"', commas and blanks inside quotes are text; a quote that does not
// open the cell is text too.
TEST(CsvCursor, ReadsQuotedCells) {
  EXPECT_EQ(csv_cells(R"("a,b", "x" ,"say ""hi""","")"),
            (CsvCells{{"a,b", 1, 5}, {"\"x\"", 7, 5}, {"say \"hi\"", 13, 12}, {"", 26, 2}}));
  EXPECT_EQ(csv_cells(R"(" padded ",0123456789abcdef0123)"), (CsvCells{{" padded ", 1, 10}, {"0123456789abcdef0123", 12, 20}}));
}

// A quote left open, or followed by anything but ',', is an error at the quote's line and column;
// the next line reads on.
TEST(CsvCursor, LocatesBadQuotes) {
  CsvCursor csv("t.csv", "a,b\nx,\"open\n\"ab\"c,d\nok\r\n");
  std::string_view line;
  ASSERT_TRUE(csv.next_line(line));
  EXPECT_TRUE(csv.split(line));
  ASSERT_TRUE(csv.next_line(line));
  EXPECT_FALSE(csv.split(line));
  EXPECT_EQ(format_diagnostic(csv.error()),
            "t.csv:2:3: error: a quoted cell must end with '\"' followed by ',' or the end of the line");
  ASSERT_TRUE(csv.next_line(line));
  EXPECT_FALSE(csv.split(line));
  EXPECT_EQ(csv.error().where.line, 3);
  EXPECT_EQ(csv.error().where.column, 1);
  ASSERT_TRUE(csv.next_line(line));
  EXPECT_TRUE(csv.split(line));
  EXPECT_EQ(csv.cells().front().text, "ok");
  EXPECT_EQ(csv.line_number(), 4);
  EXPECT_FALSE(csv.next_line(line));
}

// Every record of `csv` as (line number, cells as (text, column, width)), or the split's error,
// taking the pieces of a streamed text as they end.
std::vector<std::pair<int, std::variant<CsvCells, std::string>>> csv_records(CsvCursor& csv) {
  std::vector<std::pair<int, std::variant<CsvCells, std::string>>> out;
  std::string_view record;
  while (true) {
    if (!csv.next_record(record)) {
      if (!csv.next_piece()) break;
      continue;
    }
    if (!csv.split(record)) {
      out.emplace_back(csv.line_number(), format_diagnostic(csv.error()));
      continue;
    }
    CsvCells cells;
    for (const CsvCell& c : csv.cells()) cells.emplace_back(std::string(c.text), c.column, c.width);
    out.emplace_back(csv.line_number(), std::move(cells));
  }
  return out;
}

// A text read a piece at a time (core/text_source.h) reads as it does whole, in pieces of any
// number of lines: a quoted cell that holds line breaks (LF and CRLF) is carried across the end of
// a piece, however many pieces it spans, with its line breaks and the record's line number; a
// quote left open at the end of the text ends the record with the last line, as whole, and is an
// error at its first line. The pieces are copies overwritten one by the next
// (support/text_pieces.h), so a record that still pointed into an earlier piece would differ.
TEST(CsvCursor, AStreamedTextReadsAsTheWholeText) {
  const std::string text =
      "a,b,c\n"
      "1,\"two\nlines\",3\n"
      "x,\"say \"\"hi\"\"\",y\r\n"
      "4,\"five\r\nlines\n\n,of\nit\",6\n"
      "7, eight ,9\n"
      "\"open at the end,\nstill\r\n";
  CsvCursor whole("t.csv", text);
  const auto expected = csv_records(whole);
  ASSERT_EQ(expected.size(), 6U);
  EXPECT_EQ(expected[1].first, 2);
  EXPECT_EQ(std::get<CsvCells>(expected[1].second)[1], std::make_tuple(std::string("two\nlines"), 3, 11));
  EXPECT_EQ(expected[3].first, 5);
  EXPECT_EQ(std::get<CsvCells>(expected[3].second)[1], std::make_tuple(std::string("five\r\nlines\n\n,of\nit"), 3, 21));
  EXPECT_EQ(expected[4].first, 10);
  EXPECT_EQ(expected[5].first, 11);
  EXPECT_EQ(std::get<std::string>(expected[5].second),
            "t.csv:11:1: error: a quoted cell must end with '\"' followed by ',' or the end of the line");
  for (std::size_t lines = 1; lines <= 12; ++lines) {
    test::TextPieces pieces(text, lines);
    CsvCursor streamed("t.csv", pieces);
    EXPECT_EQ(csv_records(streamed), expected) << lines << " lines a piece";
  }
}

// A reader may trim '\r' at both ends of a cell (the flow file does).
TEST(CsvCursor, TrimsTheReadersSets) {
  CsvCursor csv("t.csv", "\r a ,b", kSpaceTabCr, kSpaceTabCr);
  std::string_view line;
  ASSERT_TRUE(csv.next_line(line));
  ASSERT_TRUE(csv.split(line));
  EXPECT_EQ(csv.cells()[0].text, "a");
  EXPECT_EQ(csv.cells()[0].raw(line), "\r a ");
}

// A text given in pieces of whole lines (every piece but the last ends with '\n'), each the fewest
// lines that reach `size` bytes (by default one line a piece).
class LinePieces final : public TextSource {
 public:
  explicit LinePieces(std::string_view text, std::size_t size = 1) : text_(text), size_(size) {}
  bool next(std::string_view& piece) override {
    if (at_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', std::min(at_ + size_, text_.size()) - 1);
    end = end == std::string_view::npos ? text_.size() : end + 1;
    piece = text_.substr(at_, end - at_);
    at_ = end;
    ++taken_;
    return true;
  }
  [[nodiscard]] const std::optional<Diagnostic>& failed() const override { return failed_; }
  std::string_view head() override { return text_; }
  [[nodiscard]] std::size_t taken() const { return taken_; }

 private:
  std::string_view text_;
  std::size_t size_;
  std::size_t at_ = 0;
  std::size_t taken_ = 0;
  std::optional<Diagnostic> failed_;
};

// Records, cells and line numbers read a line a piece are those of the whole text, records whose
// quoted cells hold line breaks (across pieces) and CRLF line ends included.
// The next record of a cursor over a source, taking pieces as needed (`more`: false, none).
bool next_streamed(CsvCursor& csv, std::string_view& record, bool more = true) {
  while (!csv.next_record(record)) {
    if (!more || !csv.next_piece()) return false;
  }
  return true;
}

TEST(CsvCursor, ReadsAPieceAtATimeAsTheWholeText) {
  const std::string text = "# a comment\r\na,\"two\nlines\",c\r\n\"three\r\nlines\n\",x\n\nplain, cell \nlast,\"open";
  CsvCursor whole("t.csv", text);
  LinePieces pieces(text);
  CsvCursor streamed("t.csv", pieces);
  std::string_view a, b;
  int records = 0;
  while (whole.next_record(a)) {
    ASSERT_TRUE(next_streamed(streamed, b)) << "record " << records;
    EXPECT_EQ(a, b);
    EXPECT_EQ(whole.line_number(), streamed.line_number());
    const bool split_a = whole.split(a);
    ASSERT_EQ(split_a, streamed.split(b));
    if (split_a) {
      ASSERT_EQ(whole.cells().size(), streamed.cells().size());
      for (std::size_t i = 0; i < whole.cells().size(); ++i) {
        EXPECT_EQ(whole.cells()[i].text, streamed.cells()[i].text);
        EXPECT_EQ(whole.cells()[i].column, streamed.cells()[i].column);
      }
    } else {
      EXPECT_EQ(format_diagnostic(whole.error()), format_diagnostic(streamed.error()));
    }
    ++records;
  }
  EXPECT_FALSE(next_streamed(streamed, b));
  EXPECT_EQ(records, 6);
  EXPECT_EQ(streamed.line_number(), 9);
}

// A quote left open does not take the rest of the input into one record: the record ends after
// about kTextPiece bytes and split() locates the open quote at its first line. Told to take no
// more pieces, the cursor stops at the end of the piece it has.
TEST(CsvCursor, BoundsARecordLeftOpen) {
  std::string text = "a,b\nx,\"open\n";
  while (text.size() < 3 * kTextPiece) text += "0123456789012345678901234567890123456789012345678901234567890123456789\n";
  LinePieces pieces(text, 64 << 10);
  CsvCursor csv("t.csv", pieces);
  std::string_view record;
  ASSERT_TRUE(next_streamed(csv, record));
  ASSERT_TRUE(next_streamed(csv, record));
  EXPECT_GT(record.size(), kTextPiece);
  EXPECT_LE(record.size(), kTextPiece + (64 << 10) + 100);
  EXPECT_FALSE(csv.split(record));
  EXPECT_EQ(csv.error().where.line, 2);
  EXPECT_EQ(csv.error().where.column, 3);
  const std::size_t taken = pieces.taken();
  EXPECT_LE(taken, kTextPiece / (64 << 10) + 2);
  while (next_streamed(csv, record, false)) {
  }
  EXPECT_EQ(pieces.taken(), taken);
}

// Every index runs exactly once, 0 on the calling thread; the refused-thread path (tested through
// the binary under `ulimit -v`, tests/cli/cli_hardening_test.cpp) runs the rest there too.
TEST(RunOnThreads, EveryIndexOnceIndexZeroOnTheCaller) {
  for (unsigned n : {0U, 1U, 2U, 7U, 64U}) {
    std::vector<std::atomic<int>> runs(n);
    std::atomic<bool> zero_on_caller{false};
    const auto caller = std::this_thread::get_id();
    run_on_threads(n, [&](unsigned k) {
      ++runs[k];
      if (k == 0) zero_on_caller = std::this_thread::get_id() == caller;
    });
    for (unsigned k = 0; k < n; ++k) EXPECT_EQ(runs[k].load(), 1) << "n " << n << " k " << k;
    if (n > 0) {
      EXPECT_TRUE(zero_on_caller.load());
    }
  }
}

}  // namespace
}  // namespace ct

namespace ct {
namespace {

// core/clock_text.h: Go durations as Kubernetes and cert-manager write them, and RFC 3339 times.
TEST(ClockText, GoDurationsAndRfc3339) {
  EXPECT_EQ(go_duration_s("2160h0m0s"), 2160 * 3600.0);
  EXPECT_EQ(go_duration_s("1h30m"), 5400.0);
  EXPECT_EQ(go_duration_s("1.5h"), 5400.0);
  EXPECT_EQ(go_duration_s("300ms"), 0.3);
  EXPECT_EQ(go_duration_s("0"), 0.0);
  EXPECT_EQ(go_duration_s("-5m"), -300.0);
  EXPECT_FALSE(go_duration_s("90"));
  EXPECT_FALSE(go_duration_s("90 days"));
  EXPECT_FALSE(go_duration_s("h"));
  EXPECT_FALSE(go_duration_s(""));
  EXPECT_EQ(rfc3339_ms("2026-12-06T00:00:00Z"), 1796515200000);
  EXPECT_EQ(rfc3339_ms("2026-12-06T01:00:00.5+01:00"), 1796515200500);
  EXPECT_FALSE(rfc3339_ms("2026-02-29T00:00:00Z"));
  EXPECT_FALSE(rfc3339_ms("2026-12-06"));
}

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Under keep_freed_memory(), a block of 64 MiB (over glibc's largest mapping threshold) freed and
// taken again is the same memory: touching it the second time faults in almost none of its 16,384
// pages. glibc's default maps it afresh and faults in every page again.
TEST(MemoryPolicy, AFreedLargeBlockIsReusedWithoutFaults) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's allocator ignores mallopt";
#endif
  keep_freed_memory();
  constexpr std::size_t kBytes = std::size_t{64} << 20;
  const auto touch = [] {
    std::vector<unsigned char> block(kBytes);
    for (std::size_t i = 0; i < kBytes; i += 4096) block[i] = static_cast<unsigned char>(i >> 12);
    return block[kBytes / 2];
  };
  const long before_first = minor_faults();
  touch();
  const long first = minor_faults() - before_first;
  const long before_second = minor_faults();
  touch();
  const long second = minor_faults() - before_second;
  EXPECT_GE(first, 8000);  // the first touch does fault the pages in: the count is seen
  EXPECT_LT(second, 200) << "first " << first;
}

}  // namespace
}  // namespace ct
