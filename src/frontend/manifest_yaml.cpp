#include "frontend/manifest_yaml.h"

#include <yaml-cpp/yaml.h>

#include "yaml/yaml_reader.h"

namespace ct {
namespace {

SourceLocation at(const YAML::Mark& mark, const std::string& file) {
  if (mark.line < 0) return {file, 0, 0};
  return {file, mark.line + 1, mark.column + 1};
}

YamlValue convert(const YAML::Node& node, const std::string& file) {
  YamlValue v;
  v.where = at(node.Mark(), file);
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      v.kind = YamlValue::Kind::kScalar;
      v.scalar = node.Scalar();
      break;
    case YAML::NodeType::Sequence:
      v.kind = YamlValue::Kind::kSequence;
      for (const auto& item : node) v.items.push_back(convert(item, file));
      break;
    case YAML::NodeType::Map:
      v.kind = YamlValue::Kind::kMapping;
      for (const auto& kv : node) {
        v.entries.emplace_back(kv.first.Scalar(), convert(kv.second, file));
        v.key_where.push_back(at(kv.first.Mark(), file));
      }
      break;
    default:
      break;
  }
  return v;
}

}  // namespace

const YamlValue* YamlValue::get(const std::string& key) const {
  for (const auto& [k, v] : entries) {
    if (k == key) return &v;
  }
  return nullptr;
}

Result<std::vector<YamlValue>> parse_yaml_documents(const std::string& text, const std::string& file) {
  YamlReader reader(file);
  const auto documents = reader.load_all(text);
  if (!documents) return reader.take_errors();
  std::vector<YamlValue> out;
  for (const YAML::Node& document : *documents) {
    if (!document || document.IsNull()) continue;
    out.push_back(convert(document, file));
  }
  return out;
}

}  // namespace ct
