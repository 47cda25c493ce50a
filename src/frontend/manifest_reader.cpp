#include "frontend/manifest_reader.h"

namespace ct {

ObjectRef read_ref(ManifestReader& r, const YamlValue& v, const std::string& field, const std::string& default_kind,
                   std::initializer_list<const char*> known) {
  r.check(&v, field, known);
  ObjectRef ref;
  ref.where = v.where;
  ref.group = r.str(v.get("group"), field + ".group");
  ref.kind = r.str(v.get("kind"), field + ".kind");
  if (ref.kind.empty()) ref.kind = default_kind;
  ref.ns = r.str(v.get("namespace"), field + ".namespace");
  ref.name = r.str(v.get("name"), field + ".name");
  if (ref.name.empty()) r.error(v.where, field + ".name", "is required");
  return ref;
}

}  // namespace ct
