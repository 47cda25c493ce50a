#!/usr/bin/env python3
"""A stand-in for Prometheus 2.42's HTTP API on 127.0.0.1, answering what Prometheus answers.

Serves the counters of saved Prometheus text scrapes (each sample with its timestamp) under
/MODE/api/v1/query_range (increase(S[Nms]) and count_over_time(S[Nms]) at start = end),
/MODE/api/v1/query (the range selector S[Nms]: raw samples) and /MODE/api/v1/label/L/values
(match[]=S), where S is {__name__="M"} or {__name__="M",L="V"} (a name regex matches nothing here). The counter between two samples is
taken as growing linearly (a counter scraped often), so increase() over any window is the growth
across it and the increases of two halves add up to the whole. MODE chooses the answer:
  ok          the data;
  limit       the sample-limit error (422 execution) for a query that would load more than
              LIMIT_SAMPLES samples, else ok;
  bad_data    400 bad_data with Prometheus' parse error text;
  execution   422 execution with another error text;
  unavailable 503 with Prometheus' plain-text body;
  slow        ok, after 3 s;
  auth        401 "Unauthorized" unless the bearer token or basic user:password is right;
  html        200 with an HTML page (a proxy's login page);
  file        200 with the contents of the file whose absolute path follows /file, whatever was asked
              (/file/tmp/x.json/api/v1/query_range answers /tmp/x.json): the fuzz test's input.
Usage: fake_prometheus.py PORT_FILE LOG_FILE TOKEN BASIC SCRAPE... (PORT_FILE gets the port once
listening; LOG_FILE one line per answer: MODE PATH STATUS). With FAKE_PROMETHEUS_TLS=CERT:KEY in
the environment it serves https with that certificate.
"""
import base64
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LIMIT_SAMPLES = 100
LINE = re.compile(r'^([A-Za-z_:][A-Za-z0-9_:]*)\{([^}]*)\}\s+(\S+)\s+(\d+)\s*$')
LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"')


def read_scrapes(paths):
    series = {}  # (metric, labels tuple) -> [(ms, value)]
    for path in paths:
        with open(path) as f:
            for line in f:
                m = LINE.match(line.strip())
                if not m:
                    continue
                labels = tuple(sorted(LABEL.findall(m.group(2))))
                series.setdefault((m.group(1), labels), []).append((int(m.group(4)), float(m.group(3))))
    for points in series.values():
        points.sort()
    return series


def value_at(points, ms):
    if ms <= points[0][0]:
        return points[0][1]
    for (t0, v0), (t1, v1) in zip(points, points[1:]):
        if ms <= t1:
            return v0 + (v1 - v0) * (ms - t0) / (t1 - t0)
    return points[-1][1]


def selected(selector):
    """The series a {name="v",...} selector picks: = matchers only (a =~ matcher picks nothing)."""
    if '=~' in selector:
        return {}
    want = dict(LABEL.findall(selector))
    name = want.pop('__name__', None)
    return {key: points for key, points in SERIES.items()
            if key[0] == name and all(dict(key[1]).get(k, '') == v for k, v in want.items())}


class Api(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, mode, status, body, kind='application/json'):
        data = body if isinstance(body, bytes) else body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header('Content-Type', kind)
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            return  # the client gave up (the slow mode's timeout)
        with LOCK, open(LOG, 'a') as log:
            log.write('%s %s %d\n' % (mode, urllib.parse.urlparse(self.path).path, status))

    def authorized(self):
        got = self.headers.get('Authorization', '')
        return got == 'Bearer ' + TOKEN or got == 'Basic ' + base64.b64encode(BASIC.encode()).decode()

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        parts = url.path.split('/', 2)
        mode = parts[1] if len(parts) > 2 else ''
        q = urllib.parse.parse_qs(url.query)
        query = q.get('query', [''])[0]
        if mode == 'slow':
            time.sleep(3)
        if mode == 'auth' and not self.authorized():
            return self.answer(mode, 401, 'Unauthorized\n', 'text/plain; charset=utf-8')
        if mode == 'bad_data':
            return self.answer(mode, 400, {'status': 'error', 'errorType': 'bad_data',
                                           'error': 'invalid parameter "query": 1:9: parse error: unexpected "}"'})
        if mode == 'execution':
            return self.answer(mode, 422, {'status': 'error', 'errorType': 'execution',
                                           'error': 'vector cannot contain metrics with the same labelset'})
        if mode == 'unavailable':
            return self.answer(mode, 503, 'Service Unavailable', 'text/plain; charset=utf-8')
        if mode == 'file':
            with open(url.path[len('/file'):url.path.index('/api/v1/')], 'rb') as f:
                return self.answer(mode, 200, f.read())
        if mode == 'html':
            return self.answer(mode, 200, '<!DOCTYPE html><html><body>Sign in</body></html>', 'text/html')
        if '/api/v1/label/' in url.path:
            label = url.path.split('/')[-2]
            chosen = selected(q.get('match[]', [''])[0])
            values = sorted({dict(labels).get(label) for (_, labels) in chosen} - {None})
            return self.answer(mode, 200, {'status': 'success', 'data': values})
        m = re.fullmatch(r'(?:(increase|count_over_time)\()?(\{[^}]*\})\[(\d+)ms\]\)?', query)
        if not m:
            return self.answer(mode, 400, {'status': 'error', 'errorType': 'bad_data',
                                           'error': 'invalid parameter "query": unexpected query for this fake'})
        fn, chosen, window = m.group(1), selected(m.group(2)), int(m.group(3))
        end = round(float(q.get('end', q.get('time', ['0']))[0]) * 1000)
        loaded = sum(1 for points in chosen.values() for p in points if end - window <= p[0] <= end)
        if mode == 'limit' and loaded > LIMIT_SAMPLES:
            return self.answer(mode, 422, {'status': 'error', 'errorType': 'execution', 'error':
                                           'query processing would load too many samples into memory in query execution'})
        result = []
        for (name, labels), points in sorted(chosen.items()):
            inside = [p for p in points if end - window <= p[0] <= end]
            tags = dict(labels)
            if fn is None:
                if inside:
                    tags['__name__'] = name
                    result.append({'metric': tags, 'values': [[t / 1000, '%.17g' % v] for t, v in inside]})
                continue
            if fn == 'count_over_time':
                if inside:
                    result.append({'metric': tags, 'values': [[end / 1000, str(len(inside))]]})
                continue
            grown = value_at(points, end) - value_at(points, end - window)
            if points[0][0] <= end and points[-1][0] >= end - window:
                result.append({'metric': tags, 'values': [[end / 1000, '%.17g' % grown]]})
        return self.answer(mode, 200, {'status': 'success', 'data': {'resultType': 'matrix', 'result': result}})


if __name__ == '__main__':
    PORT_FILE, LOG, TOKEN, BASIC = sys.argv[1:5]
    SERIES = read_scrapes(sys.argv[5:])
    LOCK = threading.Lock()
    server = ThreadingHTTPServer(('127.0.0.1', 0), Api)
    server.daemon_threads = True
    if os.environ.get('FAKE_PROMETHEUS_TLS'):
        import ssl
        cert, key = os.environ['FAKE_PROMETHEUS_TLS'].split(':')
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(PORT_FILE + '.tmp', 'w') as f:
        f.write(str(server.server_address[1]))
    os.rename(PORT_FILE + '.tmp', PORT_FILE)
    server.serve_forever()
