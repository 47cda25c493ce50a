// When cert-manager renews each Certificate, and what an issuer's outage does to it (issue 25: an
// issuer down matters only when a renewal falls in the outage).
//
// Renewal (cert-manager pkg/util/pki/renewaltime.go, RenewalTime): a certificate of lifetime L
// (notAfter - notBefore of the one issued last; else spec.duration; else cert-manager's default,
// 90 days: DefaultCertificateDuration in pkg/apis/certmanager) is renewed renewBefore before its
// notAfter, renewBefore being spec.renewBefore when 0 < it < L, else L / 3 ("2/3 through the
// certificate's lifetime"). status.renewalTime, when given, is that time as cert-manager computed
// it. A renewed certificate lasts spec.duration (or 90 days) from its renewal, so the renewals
// come every D - renewBefore(D) after the first.
// The outage: the issuer fails at F (seconds after t = 0, the wall-clock --now) and stays down (no
// repairs, as every failure of the study). Each renewal before F succeeds; the first at or after F
// fails (cert-manager retries with back-off; none succeeds), so the certificate in place then
// expires at its notAfter, and from that time every listener serving its Secret fails the TLS
// handshake. A renewal already due at t = 0 (renewalTime before --now) is attempted at 0.
// A certificate without status.notAfter, or with no --now, cannot be placed: it is listed undated.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/manifests.h"

namespace ct {

inline constexpr double kDefaultCertificateDurationS = 90.0 * 86400;  // cert-manager: 90 days

struct CertificateRenewal {
  std::string certificate;  // "ns/name"
  std::string secret;       // "ns/secretName"
  std::string issuer;       // as failure_set.h names it: "ns/name" (Issuer) or "name" (ClusterIssuer)
  bool dated = false;
  std::string undated_why;  // when not dated
  double lifetime_s = 0;       // of the certificate in place
  double renew_before_s = 0;   // its renewBefore as cert-manager applies it
  double renewal_s = 0;        // its renewal, seconds after t = 0 (negative: overdue at --now)
  double not_after_s = 0;      // its notAfter, seconds after t = 0
  double duration_s = 0;       // a renewed certificate's lifetime (spec.duration or 90 days)
  double period_s = 0;         // between renewals once renewed: duration - renewBefore(duration)
};

// The renewal of every Certificate of the manifests, in manifest order; `now_ms` the wall-clock
// time of t = 0 (nullopt: every certificate undated).
std::vector<CertificateRenewal> certificate_renewals(const Manifests& m, std::optional<std::int64_t> now_ms);

struct RenewalFailure {
  int renewed_before = 0;  // renewals that succeed before the outage
  double attempt_s = 0;    // the first renewal in the outage: it fails
  double expires_s = 0;    // notAfter of the certificate in place then: TLS fails from here
};

// The issuer of a dated certificate fails at `fail_s` and stays down (header).
RenewalFailure renewal_in_outage(const CertificateRenewal& c, double fail_s);

// Do any certificates carry dates (status.notAfter)? Then an issuer failure needs --now.
bool certificates_dated(const Manifests& m);

}  // namespace ct
