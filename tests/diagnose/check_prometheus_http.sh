#!/usr/bin/env bash
# check_prometheus_http.sh BINARY SOURCE_DIR WORKDIR
# `diagnose --prometheus` against fake_prometheus.py (127.0.0.1, a free port), which serves the
# golden lab scrapes (tests/golden/diagnose/lab-{before,after}.prom) through Prometheus 2.42's API:
#   - raw samples (--prometheus-raw) give the very JSON report that --counters gives on the two
#     files, and so do they when a query loading over 100 samples hits the sample limit (split by
#     device: one query per `instance`);
#   - increase() gives the same verdicts (group, cause) as --counters, and the same report when it
#     hits the limit (split by device: one query per `instance`);
#   - each HTTP failure exits 1 with its own message, nothing on stdout: 400 bad_data and 422
#     execution with Prometheus' errorType and error text, 503, an HTML page, a reply slower than
#     --prometheus-timeout, 401 with a wrong token and without one, a closed port, a credential
#     file that is missing or not USER:PASSWORD;
#   - https with --prometheus-ca naming the server's (self-signed) certificate gives the same report;
#     without it, or with another CA, a TLS error;
#   - the right token and the right basic auth are accepted; the token, the password and the
#     credential files' contents never appear in any output;
#   - usage errors exit 2: a bad time, --from not before --to, --from without --prometheus, no
#     window, --counters with --prometheus, a URL with USER:PASSWORD@, the token on the command line
#     (no such option).
set -u
binary=$1 src=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
server_pid= tls_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  [ -n "$tls_pid" ] && kill "$tls_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
token='tok-7f3a9c-SECRET' password='pw-91be-SECRET'
printf '%s\n' "$token" >"$work/token"
printf 'wrong-token\n' >"$work/wrong-token"
printf 'ops:%s\n' "$password" >"$work/basic"
g=$src/tests/golden/diagnose
python3 "$src/tests/diagnose/fake_prometheus.py" "$work/port" "$work/log" "$token" "ops:$password" \
  "$g/lab-before.prom" "$g/lab-after.prom" &
server_pid=$!
# The wait ends when the port file appears; its limit (60 s) is only how long a broken start takes to fail.
for _ in $(seq 600); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || fail "the fake server did not start within 60 s"
url=http://127.0.0.1:$(cat "$work/port")
spec=$src/examples/lab/fat-tree-4.yaml
window=(--from 1796296663.435 --to 2026-12-03T11:17:44.590Z)  # the scrapes' first and last sample
common=(--map "$g/lab-map.csv" --flows "$g/lab-flows.csv" --json)
n=0
run() {  # run NAME ARGS...: stdout to $work/NAME.out, stderr to $work/NAME.err, exit code in rc
  local name=$1; shift
  "$binary" diagnose "$spec" "$@" >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  n=$((n + 1))
}
verdicts() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sorted((g["switch"], g["direction"], g["imbalanced"], g.get("cause", "")) for g in d["groups"]))' "$1"; }

run saved --counters "$g/lab-before.prom" "$g/lab-after.prom" "${common[@]}"
[ $rc -eq 0 ] || fail "--counters: exit $rc: $(cat "$work/saved.err")"
for mode in ok limit; do
  run "raw-$mode" --prometheus "$url/$mode" --prometheus-raw "${window[@]}" "${common[@]}"
  [ $rc -eq 0 ] || fail "raw $mode: exit $rc: $(cat "$work/raw-$mode.err")"
  cmp -s "$work/saved.out" "$work/raw-$mode.out" || fail "raw samples ($mode) do not give the --counters report"
  run "inc-$mode" --prometheus "$url/$mode" "${window[@]}" "${common[@]}"
  [ $rc -eq 0 ] || fail "increase $mode: exit $rc: $(cat "$work/inc-$mode.err")"
  [ "$(verdicts "$work/saved.out")" = "$(verdicts "$work/inc-$mode.out")" ] ||
    fail "increase() ($mode) verdicts differ: $(verdicts "$work/inc-$mode.out") vs $(verdicts "$work/saved.out")"
done
cmp -s "$work/inc-ok.out" "$work/inc-limit.out" || fail "the split increase() differs from the unsplit one"
grep -q "^limit .* 422$" "$work/log" || fail "the sample limit was never hit"
grep -q "^limit /limit/api/v1/label/instance/values 200$" "$work/log" || fail "increase() was not split by device"
grep -q '"cause": "polarization"' "$work/saved.out" || fail "the fixture lost its polarized group"
# increase() gives one rate per series: the alert rules cannot be evaluated and the report says so
# (never "no alert would have fired"); the raw samples evaluate them as the saved scrapes do.
grep -q '"not_evaluated": "The alert rules were not evaluated' "$work/inc-ok.out" || fail "increase(): the unevaluated alert rules are not said"
! grep -q '"not_evaluated"' "$work/raw-ok.out" || fail "raw samples: the alert rules were not evaluated"

expect_error() {  # expect_error NAME TEXT ARGS...: exit 1, TEXT on stderr, nothing on stdout
  local name=$1 text=$2; shift 2
  run "$name" "$@"
  [ $rc -eq 1 ] || fail "$name: exit $rc, expected 1: $(cat "$work/$name.err")"
  [ ! -s "$work/$name.out" ] || fail "$name: printed on stdout"
  grep -q -F -- "$text" "$work/$name.err" || fail "$name: no '$text' in: $(cat "$work/$name.err")"
}
expect_error bad_data 'HTTP 400 bad_data: invalid parameter "query": 1:9: parse error' --prometheus "$url/bad_data" "${window[@]}"
expect_error execution 'HTTP 422 execution: vector cannot contain metrics with the same labelset' --prometheus "$url/execution" "${window[@]}"
expect_error unavailable "HTTP 503: 'Service Unavailable'" --prometheus "$url/unavailable" "${window[@]}"
expect_error html "the reply is not the API's JSON ('<!DOCTYPE html>" --prometheus "$url/html" "${window[@]}"
expect_error slow "$url/slow/api/v1/query_range: error: --prometheus: no complete answer within 0.5 s" --prometheus "$url/slow" --prometheus-timeout 0.5 "${window[@]}"
expect_error no-token "HTTP 401: 'Unauthorized'" --prometheus "$url/auth" "${window[@]}"
expect_error wrong-token "HTTP 401: 'Unauthorized'" --prometheus "$url/auth" --prometheus-token-file "$work/wrong-token" "${window[@]}"
expect_error closed "http://127.0.0.1:1/api/v1/query_range: error: --prometheus: unreachable: " --prometheus "http://127.0.0.1:1" "${window[@]}"
expect_error missing-token "$work/none: error: cannot open" --prometheus "$url/auth" --prometheus-token-file "$work/none" "${window[@]}"
printf 'no-colon-%s\n' "$password" >"$work/basic-bad"
expect_error basic-bad "expected USER:PASSWORD" --prometheus "$url/auth" --prometheus-basic-auth-file "$work/basic-bad" "${window[@]}"
# A CR inside the token would split the Authorization header; a CA file with no PEM certificate
# is named as such, before any request (audit of 2026-12-07, item 10).
printf '%s\rX-Injected: 1\n' "$token" >"$work/token-cr"
expect_error token-cr "$work/token-cr:1:1: error: --prometheus-token-file: the first line holds a control character (byte 13)" \
  --prometheus "$url/auth" --prometheus-token-file "$work/token-cr" "${window[@]}"
: >"$work/empty.pem"
expect_error ca-not-pem "$work/empty.pem:1:1: error: --prometheus-ca: no PEM certificate" --prometheus "$url/ok" \
  --prometheus-ca "$work/empty.pem" "${window[@]}"
run token --prometheus "$url/auth" --prometheus-token-file "$work/token" "${window[@]}" "${common[@]}"
[ $rc -eq 0 ] || fail "the right token: exit $rc: $(cat "$work/token.err")"
run basic --prometheus "$url/auth" --prometheus-basic-auth-file "$work/basic" "${window[@]}" "${common[@]}"
[ $rc -eq 0 ] || fail "the right basic auth: exit $rc: $(cat "$work/basic.err")"
cmp -s "$work/token.out" "$work/inc-ok.out" || fail "the authorized report differs from the open one"

# https: the server's self-signed certificate trusted through --prometheus-ca, and refused without
# it or with another CA.
if command -v openssl >/dev/null; then
  for name in server other; do
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
      -keyout "$work/$name.key" -out "$work/$name.pem" 2>/dev/null || fail "openssl could not make a certificate"
  done
  FAKE_PROMETHEUS_TLS="$work/server.pem:$work/server.key" python3 "$src/tests/diagnose/fake_prometheus.py" \
    "$work/tls-port" "$work/tls-log" "$token" "ops:$password" "$g/lab-before.prom" "$g/lab-after.prom" &
  tls_pid=$!
  for _ in $(seq 600); do [ -s "$work/tls-port" ] && break; sleep 0.1; done
  [ -s "$work/tls-port" ] || fail "the https fake server did not start within 60 s"
  tls=https://127.0.0.1:$(cat "$work/tls-port")
  run tls-ca --prometheus "$tls/ok" --prometheus-ca "$work/server.pem" "${window[@]}" "${common[@]}"
  [ $rc -eq 0 ] || fail "https with the server's CA: exit $rc: $(cat "$work/tls-ca.err")"
  cmp -s "$work/tls-ca.out" "$work/inc-ok.out" || fail "the https report differs from the http one"
  expect_error tls-no-ca "$tls/ok/api/v1/query_range: error: --prometheus: TLS: SSL certificate problem" --prometheus "$tls/ok" "${window[@]}"
  expect_error tls-other-ca "(CA file $work/other.pem)" --prometheus "$tls/ok" --prometheus-ca "$work/other.pem" "${window[@]}"
else
  echo "openssl not found: https not checked"
fi

expect_usage() {  # expect_usage NAME TEXT ARGS...
  local name=$1 text=$2; shift 2
  run "$name" "$@"
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2: $(cat "$work/$name.err")"
  grep -q -F -- "$text" "$work/$name.err" || fail "$name: no '$text' in: $(cat "$work/$name.err")"
}
expect_usage bad-time "--from: 'yesterday' is not a time" --prometheus "$url/ok" --from yesterday --to 1796296664
expect_usage bad-date "--to: '2026-02-30T00:00:00Z' is not a time" --prometheus "$url/ok" --from 1796296663 --to 2026-02-30T00:00:00Z
expect_usage order "is not before --to" --prometheus "$url/ok" --from 1796296664 --to 1796296663
expect_usage no-window "--from T1 --to T2" --prometheus "$url/ok"
expect_usage no-server "--from requires --prometheus" --counters "$g/lab-before.prom" "$g/lab-after.prom" --from 1796296663
expect_usage both "one of the two" --counters "$g/lab-before.prom" "$g/lab-after.prom" --prometheus "$url/ok" "${window[@]}"
expect_usage url-password "the URL carries credentials" --prometheus "http://ops:$password@127.0.0.1:1/x" "${window[@]}"
expect_usage token-argument "--prometheus-token" --prometheus "$url/auth" --prometheus-token "$token" "${window[@]}"

# The credentials appear nowhere but in the usage error that echoes the argument given.
for f in "$work"/*.out "$work"/*.err; do
  [ "$f" = "$work/token-argument.err" ] && continue
  ! grep -q -e "$token" -e "$password" "$f" || fail "a credential appears in $(basename "$f"): $(grep -e "$token" -e "$password" "$f" | head -2)"
done
echo "ok: $n runs of diagnose --prometheus"
