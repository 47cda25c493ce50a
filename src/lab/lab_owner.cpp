#include "lab/lab_owner.h"

#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "core/text.h"
#include "core/text_lines.h"
#include "lab/shell.h"

namespace ct {
namespace {

std::string mark_path(const std::string& registry, const std::string& prefix) { return registry + "/" + prefix; }

Diagnostic refusal(std::string message) { return Diagnostic{SourceLocation{"lab", 0, 0}, "--prefix", std::move(message)}; }

// The prefix's namespaces that exist now (`ip netns list`).
std::vector<std::string> existing(const std::string& prefix) {
  std::vector<std::string> out;
  const CommandResult list = run_command("ip netns list", false);
  LineCursor lines(list.out);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view name = line.substr(0, line.find(' '));
    if (lab_namespace_of(name, prefix)) out.emplace_back(name);
  }
  return out;
}

}  // namespace

std::uint32_t lab_user() {
  if (geteuid() == 0) {
    if (const char* sudo = std::getenv("SUDO_UID"); sudo != nullptr && all_digits(sudo)) {
      std::uint32_t uid = 0;
      const std::string_view s(sudo);
      if (std::from_chars(s.data(), s.data() + s.size(), uid).ec == std::errc()) return uid;
    }
  }
  return static_cast<std::uint32_t>(getuid());
}

std::string lab_default_prefix() { return fmt::format("ctlab-{}-", lab_user()); }

bool lab_namespace_of(std::string_view name, std::string_view prefix) {
  if (prefix.empty() || name.size() < prefix.size() + 2 || name.substr(0, prefix.size()) != prefix) return false;
  const char kind = name[prefix.size()];
  return (kind == 's' || kind == 'h') && all_digits(name.substr(prefix.size() + 1));
}

std::optional<std::uint32_t> lab_owner(const std::string& prefix, const std::string& registry) {
  std::ifstream in(mark_path(registry, prefix));
  std::string key;
  std::uint32_t uid = 0;
  if (!in || !(in >> key >> uid) || key != "uid") return std::nullopt;
  return uid;
}

Result<Unit> lab_check_owner(const std::string& prefix, std::uint32_t user, const std::string& registry) {
  if (const auto owner = lab_owner(prefix, registry)) {
    if (*owner == user) return Unit{};
    return refusal(fmt::format("the lab with prefix '{}' belongs to uid {} ({}); leave it alone and choose another --prefix "
                               "(yours by default: ctlab-{}-)",
                               prefix, *owner, mark_path(registry, prefix), user));
  }
  const std::vector<std::string> names = existing(prefix);
  if (names.empty()) return Unit{};
  return refusal(fmt::format("{} namespace(s) named like prefix '{}' ({}{}) exist but no lab marked them ({} is missing): "
                             "they were made by something else and are left alone; remove them with `ip netns del NAME` "
                             "if they are yours, or choose another --prefix",
                             names.size(), prefix, names.front(), names.size() > 1 ? ", ..." : "",
                             mark_path(registry, prefix)));
}

Result<Unit> lab_mark(const std::string& prefix, std::uint32_t user, const std::string& registry) {
  std::error_code ec;
  std::filesystem::create_directories(registry, ec);
  std::ofstream out(mark_path(registry, prefix), std::ios::trunc);
  out << "uid " << user << "\n";
  out.close();
  if (ec || !out) return refusal(fmt::format("cannot write the lab's owner mark {}", mark_path(registry, prefix)));
  return Unit{};
}

void lab_unmark(const std::string& prefix, const std::string& registry) {
  std::error_code ec;
  std::filesystem::remove(mark_path(registry, prefix), ec);
}

}  // namespace ct
