#include "frontend/manifest_yaml.h"

#include "yaml/yaml_reader.h"

namespace ct {
namespace {

SourceLocation at(const YamlNode& node, const std::string& file) { return {file, node.line(), node.column()}; }

YamlValue convert(const YamlNode& node, const std::string& file) {
  YamlValue v;
  v.where = at(node, file);
  switch (node.kind()) {
    case YamlNode::Kind::kScalar:
      v.kind = YamlValue::Kind::kScalar;
      v.scalar = node.scalar();
      break;
    case YamlNode::Kind::kSequence:
      v.kind = YamlValue::Kind::kSequence;
      for (const YamlNode item : node.items()) v.items.push_back(convert(item, file));
      break;
    case YamlNode::Kind::kMapping:
      v.kind = YamlValue::Kind::kMapping;
      for (const auto& kv : node.entries()) {
        v.entries.emplace_back(kv.first.scalar(), convert(kv.second, file));
        v.key_where.push_back(at(kv.first, file));
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
  for (const YamlNode& document : *documents) {
    if (!document || document.is_null()) continue;
    out.push_back(convert(document, file));
  }
  return out;
}

}  // namespace ct
