#include "io/dns_files.h"

#include <algorithm>
#include <filesystem>

#include "io/files.h"

namespace ct {

Result<DnsModel> load_dns(const std::string& path) {
  auto text = read_text_file(path, "a named.conf");
  if (!text) return text.errors();
  auto conf = parse_named_conf(text.value(), path);
  if (!conf) return conf.errors();
  // A configuration that declares no zone answers nothing: every lookup would be refused, and a
  // lint or an export of it an all-clear.
  const auto& views = conf->views;
  if (std::all_of(views.begin(), views.end(), [](const DnsView& v) { return v.zones.empty(); })) {
    return Diagnostic{SourceLocation{path, 1, 1}, "zone",
                      "no zones: the named.conf declares no primary zone (expected zone \"NAME\" { type primary; file "
                      "\"FILE\"; };, at the top or in a view)"};
  }
  DnsModel model;
  model.conf = std::move(conf).value();
  const std::filesystem::path base = std::filesystem::path(path).parent_path();
  Diagnostics errors;
  for (const auto& view : model.conf.views) {
    std::vector<Zone> zones;
    for (const auto& ref : view.zones) {
      const std::filesystem::path file = std::filesystem::path(ref.file).is_absolute() ? std::filesystem::path(ref.file) : base / ref.file;
      auto zt = read_text_file(file.string(), "a zone file");
      if (!zt) {
        for (auto d : zt.errors()) {
          d.message += " (zone " + ref.name + " of view " + view.name + ", " + ref.where.file + ":" + std::to_string(ref.where.line) + ")";
          errors.push_back(std::move(d));
        }
        continue;
      }
      // named opens an included file as it opens a zone file: relative to its working folder.
      const ZoneIncludeReader include = [&](const std::string& name, const SourceLocation&) -> Result<ZoneText> {
        const std::filesystem::path p = (std::filesystem::path(name).is_absolute() ? std::filesystem::path(name) : base / name).lexically_normal();
        auto included = read_text_file(p.string());
        if (!included) return included.errors();
        return ZoneText{p.string(), std::move(included).value()};
      };
      auto zone = parse_zone(zt.value(), ref.name, file.lexically_normal().string(), include);
      if (!zone) {
        errors.insert(errors.end(), zone.errors().begin(), zone.errors().end());
        continue;
      }
      model.warnings.insert(model.warnings.end(), zone->warnings.begin(), zone->warnings.end());
      zones.push_back(std::move(zone).value());
    }
    model.zones.push_back(std::move(zones));
  }
  if (!errors.empty()) return errors;
  return model;
}

}  // namespace ct
