"""A league on the internet behind nginx (issue 31, item 8): docs/nginx-league.conf, the
example of docs/reverse-proxy.md, run by Debian's nginx with a self-signed certificate made
here (its ports, names and paths replaced, nothing else), in front of a league on the
loopback. Through https: the leaderboard with the strict headers and HSTS, a bot submitted
(by urllib and by `arena submit`), an invite link with the proxy's address, the live event
stream unbuffered; refused: plain HTTP (sent to https), another name's TLS handshake, and a
body over the 32 MiB upload cap (by nginx, with the league's sentence)."""

from __future__ import annotations

import json
import os
import re
import resource
import selectors
import shutil
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from email.message import Message
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.league import uploads
from tests.league_support import BOTS, Site, bot_archive, served
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "nginx-league.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"

pytestmark = pytest.mark.skipif(
    not (Path(NGINX).exists() and Path(OPENSSL).exists()),
    reason="needs Debian's nginx and openssl (make install installs nginx)",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost, and its key."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout", str(key), "-out",
         str(cert), "-addext", "subjectAltName=DNS:localhost"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


def _site_config(league_port: int, https: int, plain: int, cert: Path, key: Path) -> str:
    """docs/nginx-league.conf with this test's ports, name and certificate: each replaced
    text must be there, so the example cannot drift from what is tested."""
    text = EXAMPLE.read_text()
    replaced = [
        ("/etc/letsencrypt/live/league.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/league.example.org/privkey.pem", str(key)),
        ("league.example.org", "localhost"),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{league_port};"),
        ("listen 443 ", f"listen 127.0.0.1:{https} "),
        ("listen 80;", f"listen 127.0.0.1:{plain};"),
    ]
    for old, new in replaced:
        assert old in text, f"docs/nginx-league.conf no longer has {old!r}"
        text = text.replace(old, new)
    lines = [line for line in text.splitlines() if "listen [::]:" not in line]  # no IPv6 here
    return "\n".join(lines) + "\n"


@contextmanager
def _nginx(
    folder: Path, league_port: int, cert: Path, key: Path
) -> Iterator[tuple[int, int, Path]]:
    """nginx running the example's site, in front of the league at `league_port`, on two
    free ports (its prefix, logs and temporary files in `folder`) until the block ends: its
    https port, its plain port and its error log. nginx takes no port 0: the ports are found
    free first, and when another process took one before nginx bound it (a test beside this
    one), nginx is started again on others."""
    for attempt in range(5):
        https, plain = _free_port(), _free_port()
        prefix = folder / f"try-{attempt}"
        prefix.mkdir(parents=True)
        process, error_log = _start_nginx(
            prefix, _site_config(league_port, https, plain, cert, key)
        )
        if process is not None:
            break
    else:
        raise AssertionError("nginx found its ports taken five times in a row")
    try:
        yield https, plain, error_log
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


def _start_nginx(folder: Path, site_config: str) -> tuple[subprocess.Popen[bytes] | None, Path]:
    """nginx started on the site configuration in `folder`, once it holds its ports (it
    writes its pid file after binding them), and its error log; no process if a port was
    taken."""
    (folder / "league.conf").write_text(site_config)
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temporary = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in kinds)
    error_log, pid_file = folder / "error.log", folder / "nginx.pid"
    (folder / "nginx.conf").write_text(
        ("user root root;\n" if os.geteuid() == 0 else "")  # tmp_path is root's alone
        + f"worker_processes 1;\nerror_log {error_log} info;\n"
        + "events { worker_connections 768; }\n"  # Debian's /etc/nginx/nginx.conf's
        + f"http {{\n    access_log {folder / 'access.log'};\n{temporary}\n"
        f"    include {folder / 'league.conf'};\n}}\n"
    )
    process = subprocess.Popen(
        [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(error_log),
         "-g", f"daemon off; pid {pid_file};"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip

    def started() -> str | None:
        if process.poll() is not None:
            return "stopped"
        return "listening" if pid_file.exists() else None

    try:
        if until(started, 60, what="nginx listening", every=0.05) == "listening":
            return process, error_log
    except BaseException:
        process.kill()
        process.wait(timeout=30)
        raise
    said = error_log.read_text(errors="replace") if error_log.exists() else ""
    if "Address already in use" in said:
        return None, error_log
    raise AssertionError(f"nginx stopped: {said[-2000:]}")


class Proxied:
    """The league as the internet sees it: https://localhost:PORT through nginx."""

    def __init__(self, site: Site, https: int, plain: int, cert: Path, error_log: Path) -> None:
        self.site, self.url, self.plain_url = (
            site,
            f"https://localhost:{https}",
            f"http://127.0.0.1:{plain}",
        )
        self.cert, self.error_log = cert, error_log
        self.context = ssl.create_default_context(cafile=str(cert))

    def call(
        self, method: str, path: str, token: str | None = None, body: bytes | None = None
    ) -> tuple[int, Message, bytes]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        request = urllib.request.Request(self.url + path, body, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=120, context=self.context) as answer:
                return answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Proxied]:
    cert, key = _certificate(tmp_path)
    with served(tmp_path) as site:
        league_port = int(site.url.rsplit(":", 1)[1])
        with _nginx(tmp_path / "nginx", league_port, cert, key) as (https, plain, error_log):
            yield Proxied(site, https, plain, cert, error_log)


def test_a_league_behind_nginx_is_reached_over_https_only(proxied: Proxied, tmp_path: Path) -> None:
    status, headers, body = proxied.call("GET", "/api/leaderboard")
    assert (status, json.loads(body)) == (200, [])
    assert headers["strict-transport-security"] == "max-age=31536000"  # https, told by nginx
    assert headers["content-security-policy"].startswith("default-src 'none'")
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer" and headers["cache-control"] == "no-store"
    assert "nginx/" not in headers.get("server", "")  # server_tokens off
    status, headers, page = proxied.call("GET", "/")
    assert status == 200 and b"League: mandala" in page
    assert headers["content-security-policy"].count("'sha256-") >= 2
    # a bot submitted through the proxy, by urllib and by `arena submit`
    archive = bot_archive(tmp_path, "random", "alpha").read_bytes()
    status, _, body = proxied.call("POST", "/api/bots", proxied.site.ada, archive)
    assert status == 202 and json.loads(body)["bot"] == "alpha"
    result = CliRunner(env={"SSL_CERT_FILE": str(proxied.cert)}).invoke(
        main, ["submit", str(BOTS / "greedy"), "--to", proxied.url, "--token", proxied.site.bob]
    )
    assert result.exit_code == 0 and "Submitted greedy" in result.output, result.output
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        bots = json.loads(proxied.call("GET", "/api/bots")[2])
        if {bot["status"] for bot in bots} == {"active"} and len(bots) == 2:
            break
        time.sleep(0.3)
    assert {bot["bot"]: bot["status"] for bot in bots} == {"alpha": "active", "greedy": "active"}
    # the admin's invite link is the address people reach
    status, _, body = proxied.call("POST", "/api/invites", proxied.site.admin, b"")
    assert status == 201 and json.loads(body)["link"].startswith(proxied.url + "/join#")
    # the live leaderboard's stream comes through as it is sent (nginx does not buffer it)
    proxied.site.league.start()
    request = urllib.request.Request(proxied.url + "/api/events")
    with urllib.request.urlopen(request, timeout=60, context=proxied.context) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        first = stream.readline().decode()
    assert first.startswith("data: ") and isinstance(json.loads(first[6:]), list)


def test_plain_http_and_other_names_get_nothing(proxied: Proxied) -> None:
    request = urllib.request.Request(proxied.plain_url + "/api/leaderboard")
    with pytest.raises(urllib.error.HTTPError) as redirected:  # not followed: https is
        urllib.request.build_opener(_NoRedirect).open(request, timeout=60)  # another port
    assert redirected.value.code == 301
    assert redirected.value.headers["location"].startswith("https://localhost")
    unnamed = ssl.create_default_context(cafile=str(proxied.cert))
    unnamed.check_hostname = False  # a bare address: no name to show a certificate for
    port = int(proxied.url.rsplit(":", 1)[1])
    with pytest.raises(ssl.SSLError), socket.create_connection(("127.0.0.1", port), 30) as raw:
        unnamed.wrap_socket(raw).close()


def test_a_body_over_the_upload_cap_is_refused_by_nginx(proxied: Proxied) -> None:
    too_large = b"\0" * (uploads.MAX_UPLOAD_BYTES + 1)
    status, headers, body = proxied.call("POST", "/api/bots", proxied.site.ada, too_large)
    assert status == 413
    assert json.loads(body) == {"error": "A bot archive may be at most 32 MiB."}
    assert headers["x-content-type-options"] == "nosniff"
    assert "client intended to send too large body" in proxied.error_log.read_text()
    assert json.loads(proxied.call("GET", "/api/bots")[2]) == []  # the league saw none


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


BATTERY = os.environ.get("ARENA_BATTERY") == "1"
"""`ARENA_BATTERY=1 pytest tests/test_hostile_league_proxy.py -s`: issue 42's numbers (20,000
idle connections, 500 event streams from one client) instead of the scaled ones."""
STREAMS = 500 if BATTERY else 40
READS = 20


def _idle_connections() -> int:
    """20,000 for the battery (as many as this process may open beside the rest); 2,000
    otherwise: more than the 768 connections a worker of Debian's nginx holds."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    room = hard - STREAMS - 1000
    if room < 2_000:
        pytest.skip(f"the open-files limit ({hard}) is too low")
    return min(20_000 if BATTERY else 2_000, room)


IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)


def _from(address: str, port: int) -> socket.socket:
    """A connection to nginx's `port` from `address` (its port chosen at connect, not at
    bind: binding thousands first makes each new bind search them all)."""
    connection = socket.socket()
    try:
        connection.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        connection.bind((address, 0))
        connection.settimeout(60)
        connection.connect(("127.0.0.1", port))
    except BaseException:
        connection.close()
        raise
    return connection


def _stream(proxied: Proxied, address: str) -> tuple[ssl.SSLSocket, int, bytes]:
    """An event stream asked through nginx from `address`: the connection, its answer's
    status and, for a refusal, its body."""
    port = int(proxied.url.rsplit(":", 1)[1])
    tls = proxied.context.wrap_socket(_from(address, port), server_hostname="localhost")
    tls.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = tls.recv(65536)
        assert chunk, f"nginx closed the stream unanswered: {answer!r}"
        answer += chunk
    head, body = answer.split(b"\r\n\r\n", 1)
    status = int(head.split(b" ", 2)[1])
    if status != 200:
        length = re.search(rb"(?i)\r\ncontent-length: (\d+)", head)
        assert length, head
        while len(body) < int(length[1]) and (chunk := tls.recv(65536)):
            body += chunk
    return tls, status, body


def _still_open(connections: list[socket.socket]) -> int:
    """How many of `connections` nginx has not closed."""
    with selectors.DefaultSelector() as watch:
        for connection in connections:
            watch.register(connection, selectors.EVENT_READ)
        return len(connections) - len(watch.select(timeout=0))


def _leaderboard_ms(proxied: Proxied, address: str) -> float:
    """One plain leaderboard read through nginx from `address` on a new connection, in ms."""
    port = int(proxied.url.rsplit(":", 1)[1])
    start = time.perf_counter()
    with proxied.context.wrap_socket(_from(address, port), server_hostname="localhost") as tls:
        tls.sendall(
            b"GET /api/leaderboard HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        answer = b""
        while chunk := tls.recv(65536):
            answer += chunk
    took = (time.perf_counter() - start) * 1000
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:300]
    return took


def test_one_client_behind_nginx_cannot_take_the_league(proxied: Proxied, tmp_path: Path) -> None:
    """Issue 42, item 2: one client (127.0.0.2) opens many idle connections and asks STREAMS
    event streams; nginx holds the idle ones (the league never sees them; past its 768 it
    closes idle ones to take new ones) and serves it 8 streams (the rest 503 or 429, with a
    sentence), and another client (127.0.0.3) still reads the leaderboard: its latency is printed beside the one before (with the battery's
    numbers, two bots play meanwhile, so the board and the streams' events change)."""
    idle = _idle_connections()
    if BATTERY:
        for source, name in (("random", "alpha"), ("greedy", "beta")):
            archive = bot_archive(tmp_path, source, name).read_bytes()
            assert proxied.call("POST", "/api/bots", proxied.site.ada, archive)[0] == 202
            proxied.site.wait_status(name, "active")
    proxied.site.league.start()
    before = sorted(_leaderboard_ms(proxied, "127.0.0.3") for _ in range(READS))
    port = int(proxied.url.rsplit(":", 1)[1])
    with ExitStack() as held:
        refused = []
        for _ in range(STREAMS):
            tls, status, body = _stream(proxied, "127.0.0.2")
            held.enter_context(tls)
            if status != 200:
                refused.append((status, body))
        opening = time.perf_counter()
        idlers = [held.enter_context(_from("127.0.0.2", port)) for _ in range(idle)]
        opened_s, opened = time.perf_counter() - opening, _still_open(idlers)
        during = sorted(_leaderboard_ms(proxied, "127.0.0.3") for _ in range(READS))
        still = _still_open(idlers)
        served = STREAMS - len(refused)
        assert served == 8  # docs/nginx-league.conf's limit_conn arena_streams
        for status, body in refused:
            assert status in (503, 429), body
            assert json.loads(body)["error"].startswith("Too many requests from your address")
        theirs, status, _ = _stream(proxied, "127.0.0.3")  # another client's stream: served
        theirs.close()
        assert status == 200
        # more idle connections than nginx's 768: it closed idle ones to serve the others
        assert "worker_connections are not enough, reusing connections" in (
            proxied.error_log.read_text()
        )
    print(
        f"\n{STREAMS} streams asked from 127.0.0.2 ({served} served), then {idle} idle "
        f"connections opened in {opened_s:.1f} s (open then: {opened}, after the reads: "
        f"{still}; nginx closes one idle for 10 s); 127.0.0.3's leaderboard through nginx: "
        f"median {before[READS // 2]:.1f} ms before, {during[READS // 2]:.1f} ms during "
        f"(x{during[READS // 2] / before[READS // 2]:.2f}); slowest {before[-1]:.1f} / "
        f"{during[-1]:.1f} ms"
    )
