"""The Sharpline odds API from Python, with the standard library only (Python 3.9+).

    import os, sharpline

    client = sharpline.Client(os.environ["SHARPLINE_KEY"])
    odds = client.odds(league="nba", markets=["moneyline"], main=True)
    for event in client.stream(league="nba", types=["price", "arb"]):
        print(event.event, event.json())

Errors are raised as ``SharplineError`` with the API's problem+json (``status``, ``type``, ``code``, ``detail``,
``problem``, ``retry_after``). ``stream()`` reconnects after a dropped connection with ``Last-Event-ID``, so the
server replays what was missed.
"""

from __future__ import annotations

import gzip
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional

__all__ = ["Client", "SharplineError", "StreamEvent", "RateLimit", "parse_event_stream", "query_string"]
__version__ = "1.0.0"

PROBLEM_TYPE_BASE = "https://sharpline.io/problems/"
DEFAULT_BASE_URL = "https://sharpline.io"


class SharplineError(Exception):
    """An error answer of the API (RFC 9457 problem+json), or no answer at all (``status`` 0, ``code`` "network")."""

    def __init__(self, status: int, problem: Mapping[str, Any], retry_after: Optional[float] = None):
        self.status = status
        self.problem: Dict[str, Any] = dict(problem)
        self.type: str = str(problem.get("type", "about:blank"))
        self.code = self.type[len(PROBLEM_TYPE_BASE):] if self.type.startswith(PROBLEM_TYPE_BASE) else self.type
        self.title: str = str(problem.get("title", "Error"))
        self.detail: Optional[str] = problem.get("detail")
        #: Seconds from Retry-After (429, 503), when the answer gave it.
        self.retry_after = retry_after
        super().__init__(f"{status} {self.title}" + (f": {self.detail}" if self.detail else ""))


@dataclass(frozen=True)
class RateLimit:
    """The rate-limit headers of an answer."""

    limit: int
    remaining: int
    reset_seconds: int


@dataclass(frozen=True)
class StreamEvent:
    """One server-sent event of /v1/stream."""

    event: str
    data: str
    id: Optional[str]

    def json(self) -> Any:
        return json.loads(self.data)


def query_string(params: Mapping[str, Any]) -> str:
    """Query parameters as the API reads them: lists comma-separated, booleans true/false, None left out."""
    pairs = []
    for name, value in params.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple, set)):
            value = ",".join(str(item) for item in value)
        pairs.append((name, str(value)))
    return ("?" + urllib.parse.urlencode(pairs)) if pairs else ""


def parse_event_stream(lines: Iterator[bytes], on_retry: Optional[Callable[[int], None]] = None) -> Iterator[StreamEvent]:
    """Server-sent events from the lines of a text/event-stream body (fields, comments, the blank line that ends one)."""
    event, data, event_id, saw_id = "", [], None, False
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield StreamEvent(event or "message", "\n".join(data), event_id if saw_id else None)
            event, data, saw_id = "", [], False
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id" and "\0" not in value:
            event_id, saw_id = value, True
        elif field == "retry" and value.isdigit() and on_retry:
            on_retry(int(value))


def _number(headers: Mapping[str, str], name: str) -> Optional[float]:
    value = headers.get(name)
    try:
        return float(value) if value is not None and value.strip() != "" else None
    except ValueError:
        return None


def _error_of(status: int, headers: Mapping[str, str], body: bytes) -> SharplineError:
    try:
        problem = json.loads(body.decode("utf-8"))
        if not isinstance(problem, dict) or "type" not in problem:
            raise ValueError("not a problem")
    except ValueError:
        problem = {"type": "about:blank", "title": "Error", "status": status, "detail": body[:500].decode("utf-8", "replace")}
    return SharplineError(status, problem, _number(headers, "retry-after"))


def _decoded(body: bytes, encoding: Optional[str]) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    return body


class Client:
    """The odds API's calls. Every method returns the answer's JSON (dicts and lists) or raises SharplineError."""

    def __init__(self, api_key: str, base_url: str = DEFAULT_BASE_URL, timeout: float = 30.0):
        if not api_key:
            raise ValueError("api_key is required")
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        #: The rate-limit headers of the last answer.
        self.last_rate_limit: Optional[RateLimit] = None

    # --- transport ---------------------------------------------------------------------------------------------

    def request(self, method: str, path: str, query: Optional[Mapping[str, Any]] = None, body: Any = None) -> Any:
        """Any /v1 call: its JSON answer."""
        headers = {"X-Api-Key": self.api_key, "Accept": "application/json", "Accept-Encoding": "gzip",
                   "User-Agent": f"sharpline-python/{__version__}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        url = f"{self.base_url}{path}{query_string(query or {})}"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                self._note_rate_limit(response.headers)
                payload = _decoded(response.read(), response.headers.get("Content-Encoding"))
                return json.loads(payload.decode("utf-8"))
        except urllib.error.HTTPError as error:
            self._note_rate_limit(error.headers)
            payload = _decoded(error.read(), error.headers.get("Content-Encoding"))
            raise _error_of(error.code, error.headers, payload) from None
        except (urllib.error.URLError, OSError) as error:
            raise SharplineError(0, {"type": "network", "title": "No answer", "status": 0, "detail": str(error)}) from None

    def _note_rate_limit(self, headers: Mapping[str, str]) -> None:
        limit, remaining, reset = (_number(headers, name) for name in
                                   ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"))
        if limit is not None and remaining is not None and reset is not None:
            self.last_rate_limit = RateLimit(int(limit), int(remaining), int(reset))

    # --- the calls ---------------------------------------------------------------------------------------------

    def sports(self) -> Any:
        return self.request("GET", "/v1/sports")

    def leagues(self) -> Any:
        return self.request("GET", "/v1/leagues")

    def events(self, **query: Any) -> Any:
        return self.request("GET", "/v1/events", query)

    def event(self, event_id: str) -> Any:
        return self.request("GET", f"/v1/events/{urllib.parse.quote(event_id, safe='')}")

    def odds(self, **query: Any) -> Any:
        """GET /v1/odds: league=, event=, markets=[...], books=[...], period=, main=True, live=, player=, stat=[...]."""
        return self.request("GET", "/v1/odds", query)

    def arbs(self, **query: Any) -> Any:
        return self.request("GET", "/v1/arbs", query)

    def positive_ev(self, **query: Any) -> Any:
        return self.request("GET", "/v1/ev", query)

    def middles(self, **query: Any) -> Any:
        return self.request("GET", "/v1/middles", query)

    def movement(self, event_id: str, **query: Any) -> Any:
        return self.request("GET", f"/v1/events/{urllib.parse.quote(event_id, safe='')}/movement", query)

    def lines(self, event_id: str, **query: Any) -> Any:
        return self.request("GET", f"/v1/events/{urllib.parse.quote(event_id, safe='')}/lines", query)

    def clv(self, bets: List[Mapping[str, Any]], **options: Any) -> Any:
        """POST /v1/clv: closing-line value of your bets (devig=, reference= as options)."""
        return self.request("POST", "/v1/clv", body={"bets": list(bets), **options})

    def historical_odds(self, **query: Any) -> Any:
        return self.request("GET", "/v1/historical/odds", query)

    def sgp(self, body: Mapping[str, Any]) -> Any:
        return self.request("POST", "/v1/sgp", body=dict(body))

    def me(self) -> Any:
        return self.request("GET", "/v1/me")

    def usage(self, **query: Any) -> Any:
        return self.request("GET", "/v1/me/usage", query)

    def rotate_key(self) -> Any:
        """POST /v1/me/rotate: the answer holds the new key; this client switches to it."""
        answer = self.request("POST", "/v1/me/rotate")
        new_key = answer.get("key") if isinstance(answer, dict) else None
        if isinstance(new_key, str):
            self.api_key = new_key
        return answer

    def billing_portal(self) -> Any:
        return self.request("POST", "/v1/me/portal")

    # --- the stream --------------------------------------------------------------------------------------------

    def stream(self, last_event_id: Optional[str] = None, reconnect_delay: float = 1.0, max_reconnects: int = 10,
               read_timeout: float = 45.0, on_reconnect: Optional[Callable[[Optional[str]], None]] = None,
               **query: Any) -> Iterator[StreamEvent]:
        """/v1/stream's events for as long as you iterate (break, or close() the generator, to stop).

        A dropped connection (or no byte for ``read_timeout`` seconds: the server sends a comment at least every 15 s)
        is reopened with Last-Event-ID, so the server replays what was missed, or sends a fresh ``snapshot`` when the
        gap is too old. A ``close`` event ends the iteration after it is yielded, unless its reason is
        ``plan-changed`` (the stream reopens on the new plan). An error answer is raised as SharplineError.
        """
        delay = reconnect_delay
        failures = 0
        attempt = 0
        while True:
            if attempt > 0:
                if failures > max_reconnects:
                    raise SharplineError(0, {"type": "network", "title": "Stream lost", "status": 0,
                                             "detail": f"No event after {max_reconnects} reconnections."})
                if on_reconnect:
                    on_reconnect(last_event_id)
                time.sleep(delay)
            attempt += 1
            failures += 1
            headers = {"X-Api-Key": self.api_key, "Accept": "text/event-stream",
                       "User-Agent": f"sharpline-python/{__version__}"}
            if last_event_id:
                headers["Last-Event-ID"] = last_event_id
            request = urllib.request.Request(f"{self.base_url}/v1/stream{query_string(query)}", headers=headers)
            try:
                response = urllib.request.urlopen(request, timeout=read_timeout)
            except urllib.error.HTTPError as error:
                problem = _error_of(error.code, error.headers, error.read())
                if (error.code == 429 and problem.code != "stream-limit") or error.code == 503:
                    delay = max(delay, problem.retry_after or 1.0)
                    continue
                raise problem from None
            except (urllib.error.URLError, OSError):
                continue

            def retry(ms: int) -> None:
                nonlocal delay
                delay = ms / 1000

            try:
                with response:
                    for event in parse_event_stream(iter(response.readline, b""), retry):
                        failures = 0
                        if event.id is not None:
                            last_event_id = event.id
                        yield event
                        if event.event == "close" and event.json().get("reason") != "plan-changed":
                            return
            except (OSError, ValueError, urllib.error.URLError):
                # The connection dropped (or a read timed out): reconnect with Last-Event-ID.
                pass
            except Exception as error:  # http.client.IncompleteRead and the like
                if error.__class__.__module__ != "http.client":
                    raise
