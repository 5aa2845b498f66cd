"""A league exposed to strangers (issue 31, item 8): every response carries strict headers
(a Content-Security-Policy that lets only the pages' own scripts run, nosniff, no referrer,
no framing, no caching of the API), the leaderboard's query is typed and bounded (digit
look-alikes and 5,000-digit numbers are one sentence, never a 500), path parameters take
ASCII digits only, and `arena serve` warns when it listens beyond this machine. A real
server on the loopback, a real chromium where Debian's is installed."""

from __future__ import annotations

import gzip
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from tests.browser_support import chromium, needs_chromium, until
from tests.league_support import Site, bot_archive, served


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A league whose two bots have played a few games, then paused (nothing moves)."""
    tmp_path = tmp_path_factory.mktemp("exposure")
    with served(tmp_path) as running:
        for token, source, name in (
            (running.ada, "random", "alpha"),
            (running.bob, "greedy", "beta"),
        ):
            archive = bot_archive(tmp_path, source, name).read_bytes()
            assert running.call("POST", "/api/bots", token, archive)[0] == 202
        running.wait_status("alpha", "active")
        running.wait_status("beta", "active")
        running.league.start()
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and running.league.standings.count < 4:
            time.sleep(0.2)
        running.league.set_paused(True)
        assert running.league.standings.count, "the league played no game"
        yield running


def _fetch(
    site: Site,
    method: str,
    path: str,
    token: str | None = None,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Message, bytes]:
    """Status, headers and (for anything but the event stream) body of one request."""
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(site.url + path, body, sent, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            streaming = answer.headers.get("content-type", "").startswith("text/event-stream")
            return answer.status, answer.headers, b"" if streaming else answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def _assert_strict(headers: Message, where: str) -> None:
    policy = headers.get("content-security-policy", "")
    directives = dict(part.strip().partition(" ")[::2] for part in policy.split(";"))
    assert directives.get("default-src") == "'none'", where
    assert directives.get("frame-ancestors") == "'none'", where
    assert directives.get("base-uri") == "'none'", where
    assert directives.get("form-action") == "'self'", where
    assert directives.get("connect-src") == "'self'", where
    assert directives.get("img-src") == "'self' data:", where
    for kind in ("script-src", "style-src"):  # the pages' own inline texts, by hash only
        sources = directives.get(kind, "").split()
        assert sources and all(source.startswith("'sha256-") for source in sources), where
    assert "unsafe" not in policy, where
    assert headers.get("x-content-type-options") == "nosniff", where
    assert headers.get("referrer-policy") == "no-referrer", where
    assert headers.get("x-frame-options") == "DENY", where
    assert headers.get("cache-control") == "no-store", where
    assert headers.get("strict-transport-security") is None, where  # plain HTTP here


def test_every_route_and_refusal_carries_the_strict_headers(site: Site) -> None:
    game_id = site.league.store.games()[0].game_id
    records = site.league.folder / "records"
    (records / "L9999999-g98.json.gz").write_bytes(b"not a record")
    (records / "L9999999-g99.json.gz").write_bytes(gzip.compress(b'{"game": "mandala"}'))
    calls: list[tuple[str, str, str | None, bytes | None, int]] = [
        ("GET", "/", None, None, 200),
        ("GET", "/join", None, None, 200),
        ("GET", "/favicon.ico", None, None, 204),
        ("GET", "/api/leaderboard", None, None, 200),
        ("GET", "/api/leaderboard?seats=2&bots=alpha,beta", None, None, 200),
        ("GET", "/api/leaderboard?seats=%C2%B2", None, None, 400),
        ("GET", "/api/bots", None, None, 200),
        ("GET", "/api/bots/alpha", None, None, 200),
        ("GET", "/api/bots/nobody", None, None, 404),
        ("GET", "/api/bots/alpha/stderr", site.ada, None, 200),
        ("GET", "/api/bots/beta/stderr", site.ada, None, 403),
        ("GET", "/nowhere", None, None, 404),
        ("PUT", "/api/leaderboard", None, b"", 405),
        ("GET", f"/replay/{game_id}", None, None, 200),
        ("GET", "/replay/L9999990-g1", None, None, 404),
        ("GET", "/replay/L9999999-g98", None, None, 0),  # a broken record: refused
        ("GET", "/replay/L9999999-g99", None, None, 0),  # a record that does not replay
        ("POST", "/api/bots", None, b"x", 401),
        ("POST", "/api/join", None, b"[", 400),
        ("POST", "/api/pause", site.ada, b"", 403),
        ("POST", "/api/invites", site.admin, b"", 201),
        ("GET", "/api/events", None, None, 200),
    ]
    for method, path, token, body, wanted in calls:
        status, headers, _ = _fetch(site, method, path, token, body)
        assert status == wanted if wanted else status >= 400, (method, path, status)
        _assert_strict(headers, f"{method} {path}")
    # pages are HTML, the API JSON: nothing for a browser to guess
    assert _fetch(site, "GET", "/")[1].get_content_type() == "text/html"
    assert _fetch(site, "GET", "/api/bots")[1].get_content_type() == "application/json"


def test_strict_transport_security_only_over_https_from_the_trusted_proxy(site: Site) -> None:
    """uvicorn trusts X-Forwarded-Proto from 127.0.0.1 (the reverse proxy's address)."""
    _, plain, _ = _fetch(site, "GET", "/api/leaderboard")
    assert plain.get("strict-transport-security") is None
    _, proxied, _ = _fetch(site, "GET", "/", headers={"X-Forwarded-Proto": "https"})
    assert proxied.get("strict-transport-security") == "max-age=31536000"
    status, _, body = _fetch(
        site, "POST", "/api/invites", site.admin, b"", {"X-Forwarded-Proto": "https"}
    )
    assert status == 201 and json.loads(body)["link"].startswith("https://127.0.0.1:")


def _one_sentence(body: bytes) -> str:
    sentence = json.loads(body)["error"]
    assert isinstance(sentence, str) and sentence.endswith(".") and "\n" not in sentence
    assert len(sentence) < 200
    return sentence


@pytest.mark.parametrize(
    "query",
    [
        "seats=%C2%B2",  # ² : str.isdigit() says yes, int() says no
        "seats=%D9%A3",  # ٣ (Arabic-Indic three): int() would take it
        "seats=%EF%BC%93",  # ３ (fullwidth)
        "seats=" + "9" * 5000,  # beyond int()'s 4,300 digits
        "seats=0",
        "seats=100",
        "seats=-2",
        "seats=2.0",
        "since=garbage",
        "since=" + "2" * 5000,
        "until=%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%96-01-01",  # ２０２６ (fullwidth)
        "until=0001-01-01T00:00%2B01:00",  # before year 1 in UTC
        "since=2026-13-45",
        "bots=alpha%C2%B2",
        "bots=" + "a" * 81,
        "bots=" + ",".join(f"b{number}" for number in range(101)),
        "bots=" + "a," * 5000,
        "bots=%3Cscript%3E",
    ],
)
def test_a_bad_leaderboard_query_is_one_sentence_never_a_500(site: Site, query: str) -> None:
    status, headers, body = _fetch(site, "GET", "/api/leaderboard?" + query)
    assert status == 400, (query[:40], status, body[:200])
    name = query.partition("=")[0]
    assert f"{name}=" in _one_sentence(body)
    _assert_strict(headers, query[:40])


def test_a_leaderboards_times_are_read_with_their_time_zone(site: Site) -> None:
    finished = sorted(line.finished_at for line in site.league.store.games())
    first, last = datetime.fromisoformat(finished[0]), datetime.fromisoformat(finished[-1])
    east, west = timezone(timedelta(hours=5)), timezone(timedelta(hours=-5))
    since = urllib.parse.quote(last.astimezone(east).isoformat())  # the last game, at +05:00
    status, _, body = _fetch(site, "GET", f"/api/leaderboard?since={since}")
    assert status == 200 and json.loads(body), "the last game is since its own finish"
    until = urllib.parse.quote(first.astimezone(west).isoformat())  # the first, at -05:00
    status, _, body = _fetch(site, "GET", f"/api/leaderboard?until={until}")
    assert status == 200 and json.loads(body), "the first game is until its own finish"
    status, _, body = _fetch(site, "GET", "/api/leaderboard?seats=2&bots=alpha,beta,,")
    assert status == 200 and {row["bot"] for row in json.loads(body)} == {"alpha", "beta"}
    status, _, body = _fetch(site, "GET", "/api/leaderboard?since=2100-01-01&until=2100-01-02")
    assert status == 404 and "No game of this league finished from" in _one_sentence(body)


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", "/api/bots/alpha%C2%B2"),
        ("GET", "/api/bots/%D9%A3"),
        ("GET", "/api/bots/alpha%0A"),
        ("GET", "/replay/L000000%C2%B2-g1"),
        ("GET", "/replay/L%EF%BC%90000001-g1"),
        ("GET", "/replay/L0000001-g%D9%A1"),
        ("GET", "/api/bots/alpha%C2%B2/stderr"),
        ("POST", "/api/bots/alpha%C2%B2/retire"),
        ("POST", "/api/bots/%D9%A3/remove"),
        ("POST", "/api/bots/alpha%C2%B2/unretire"),
    ],
)
def test_digit_look_alikes_in_a_path_are_no_bot_and_no_game(
    site: Site, method: str, path: str
) -> None:
    status, headers, body = _fetch(site, method, path, site.ada, b"" if method == "POST" else None)
    assert status in (403, 404), (path, status, body[:200])
    _one_sentence(body)
    _assert_strict(headers, path)


def _serve(tmp_path: Path, *arguments: str) -> Any:
    return CliRunner().invoke(main, ["serve", "--league", str(tmp_path / "l"), *arguments])


def test_serving_beyond_this_machine_warns_that_tokens_travel_in_plain_http(
    tmp_path: Path,
) -> None:
    result = _serve(tmp_path, "--host", "0.0.0.0", "--add-author", "ada")
    assert result.exit_code == 0 and "Their token" in result.stdout, result.output
    warning = result.stderr
    assert "--host 0.0.0.0" in warning and "plain HTTP" in warning, warning
    assert "docs/reverse-proxy.md" in warning and "--host 127.0.0.1" in warning
    assert warning.count("\n") == 1  # one sentence
    # the league that would serve says it too, before it listens (here the port is taken)
    with socket.create_server(("0.0.0.0", 0)) as taken:
        port = str(taken.getsockname()[1])
        result = _serve(tmp_path, "--host", "0.0.0.0", "--port", port, "--workers", "0")
    assert result.exit_code == 1 and "plain HTTP" in result.stderr, result.output
    for number, host in enumerate(("127.0.0.1", "localhost", "::1", "127.0.0.2")):
        result = _serve(tmp_path, "--host", host, "--add-author", f"a{number}")
        assert result.exit_code == 0 and result.stderr == "", (host, result.output)


def test_an_invite_link_uses_the_public_url(tmp_path: Path) -> None:
    result = _serve(tmp_path, "--invite", "--public-url", "https://league.example.org/")
    assert result.exit_code == 0 and result.stderr == "", result.output
    assert "https://league.example.org/join#invite_" in result.stdout
    result = _serve(tmp_path, "--invite", "--public-url", "http://league.example.org")
    assert "http://league.example.org/join#invite_" in result.stdout
    assert "plain HTTP" in result.stderr and "https" in result.stderr
    for wrong in ("league.example.org", "ftp://league.example.org", "https://x.org/?a=1"):
        result = _serve(tmp_path, "--invite", "--public-url", wrong)
        assert result.exit_code == 2 and "--public-url" in result.output, result.output
        assert "Traceback" not in result.output


@needs_chromium
def test_the_pages_work_in_chromium_and_no_other_inline_script_runs(site: Site) -> None:
    from selenium.webdriver.common.by import By

    def severe(driver: Any) -> list[Any]:  # a refusal's status is no page error
        return [
            entry
            for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and entry["source"] != "network"
        ]

    game_id = site.league.store.games()[0].game_id
    with chromium() as driver:
        driver.get(site.url + "/")  # its script and style run under the policy
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#board tr")) >= 2)
        until(lambda: "alpha" in driver.find_element(By.ID, "bots").text)
        assert driver.execute_script(
            "return getComputedStyle(document.body).fontFamily.includes('system-ui')"
        )
        driver.get(site.url + "/join#not-a-code")
        driver.find_element(By.ID, "name").send_keys("carol")
        driver.find_element(By.ID, "join").click()
        until(lambda: "not valid" in driver.find_element(By.ID, "answer").text)
        driver.get(f"{site.url}/replay/{game_id}")
        assert "Move 1" in until(lambda: driver.find_element(By.ID, "counter").text)
        assert not severe(driver)
        # a script put in the page by anything but the page itself does not run
        ran = driver.execute_script(
            "const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
            "document.body.append(s); return window.ran === 1;"
        )
        assert not ran
        assert any("Content Security Policy" in entry["message"] for entry in severe(driver))
