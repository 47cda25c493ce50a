// gen_scrape_pair SPEC DIR [SEED]: writes DIR/before.prom, DIR/after.prom and DIR/map.csv, the
// counters of SPEC's fabric under load (bench/scrape_pair.h; SEED 1 when not given), for
// `clustertwin diagnose SPEC --counters DIR/before.prom DIR/after.prom --map DIR/map.csv`
// (bench/diagnose_32k.sh). Exit 1 when the spec does not build or a file cannot be written.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "scrape_pair.h"
#include "io/files.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"

int main(int argc, char** argv) {
  using namespace ct;
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: %s SPEC DIR [SEED]\n", argv[0]);
    return 2;
  }
  const std::string spec_path = argv[1], dir = argv[2];
  const std::uint64_t seed = argc == 4 ? std::strtoull(argv[3], nullptr, 10) : 1;
  auto fail = [](const Diagnostics& d) {
    std::fputs(format_diagnostics(d).c_str(), stderr);
    return 1;
  };
  auto yaml = read_text_file(spec_path, "a cluster spec");
  if (!yaml) return fail(yaml.errors());
  auto catalog = load_catalog(default_catalog_dir());
  if (!catalog) return fail(catalog.errors());
  auto valid = validate_reading(read_spec(spec_path, yaml.value()), catalog.value());
  if (!valid) return fail(valid.errors());
  auto fabric = build_fabric(valid.value(), catalog.value());
  if (!fabric) return fail(fabric.errors());
  const bench::ScrapePair pair = bench::scrape_pair(fabric.value(), seed);
  for (const auto& [name, text] : {std::pair{"/before.prom", &pair.before}, {"/after.prom", &pair.after}, {"/map.csv", &pair.map}}) {
    auto written = write_file_atomic(dir + name, *text);
    if (!written) return fail(written.errors());
  }
  std::printf("%zu series per scrape in %s\n", pair.series, dir.c_str());
  return 0;
}
