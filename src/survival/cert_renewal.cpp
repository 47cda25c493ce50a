#include "survival/cert_renewal.h"

#include <algorithm>
#include <cmath>

namespace ct {

namespace {

// cert-manager's renewBefore for a lifetime: spec.renewBefore when 0 < it < lifetime, else a third.
double renew_before(const Certificate& c, double lifetime) {
  if (c.renew_before_s && *c.renew_before_s > 0 && *c.renew_before_s < lifetime) return *c.renew_before_s;
  return lifetime / 3;
}

}  // namespace

std::vector<CertificateRenewal> certificate_renewals(const Manifests& m, std::optional<std::int64_t> now_ms) {
  std::vector<CertificateRenewal> out;
  for (const Certificate& c : m.certificates) {
    CertificateRenewal r;
    r.certificate = c.meta.ns + "/" + c.meta.name;
    r.secret = c.meta.ns + "/" + c.secret_name;
    r.issuer = c.issuer.kind == "ClusterIssuer" ? c.issuer.name : c.meta.ns + "/" + c.issuer.name;
    r.duration_s = c.duration_s.value_or(kDefaultCertificateDurationS);
    r.period_s = r.duration_s - renew_before(c, r.duration_s);
    if (!c.not_after_ms) {
      r.undated_why = "no status.notAfter (the manifests carry no issued certificate's dates)";
    } else if (!now_ms) {
      r.undated_why = "no --now to place its dates against";
    } else {
      r.dated = true;
      const double after = static_cast<double>(*c.not_after_ms - *now_ms) / 1000;
      r.lifetime_s = c.not_before_ms ? static_cast<double>(*c.not_after_ms - *c.not_before_ms) / 1000 : r.duration_s;
      r.renew_before_s = renew_before(c, r.lifetime_s);
      r.not_after_s = after;
      r.renewal_s = c.renewal_ms ? static_cast<double>(*c.renewal_ms - *now_ms) / 1000 : after - r.renew_before_s;
    }
    out.push_back(std::move(r));
  }
  return out;
}

RenewalFailure renewal_in_outage(const CertificateRenewal& c, double fail_s) {
  RenewalFailure f;
  double attempt = std::max(c.renewal_s, 0.0);
  double not_after = c.not_after_s;
  if (attempt < fail_s && c.period_s > 0) {
    // Renewals at attempt, attempt + P, ...: those before the failure succeed.
    const double k = std::ceil((fail_s - attempt) / c.period_s);
    f.renewed_before = static_cast<int>(std::min(k, 2e9));
    const double last = attempt + c.period_s * (k - 1);
    not_after = last + c.duration_s;
    attempt = last + c.period_s;
  }
  f.attempt_s = std::max(attempt, fail_s);
  f.expires_s = std::max({not_after, fail_s, 0.0});
  return f;
}

bool certificates_dated(const Manifests& m) {
  return std::any_of(m.certificates.begin(), m.certificates.end(), [](const Certificate& c) { return c.not_after_ms.has_value(); });
}

}  // namespace ct
