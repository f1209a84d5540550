"""The Python client against a running Sharpline server.

clients/clients.test.ts starts the server (the tests' usual app, on loopback) and runs this file with:
  SHARPLINE_BASE_URL    the server
  SHARPLINE_STREAM_URL  the same server behind a proxy that drops the first stream connection after a moment
  SHARPLINE_API_KEY     an Enterprise key
  SHARPLINE_STARTER_KEY a Starter key (plan refusals)
Run by hand: start a server, make the keys, set those variables, then
  python3 -m unittest discover -s clients/python/tests
"""

import io
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import sharpline  # noqa: E402

REQUIRED = ("SHARPLINE_BASE_URL", "SHARPLINE_STREAM_URL", "SHARPLINE_API_KEY", "SHARPLINE_STARTER_KEY")


def setUpModule():
    missing = [name for name in REQUIRED if not os.environ.get(name)]
    if missing:
        raise RuntimeError(f"set {', '.join(missing)} (see this file's docstring)")


class Parsing(unittest.TestCase):
    def test_query_string_joins_lists_and_writes_booleans(self):
        self.assertEqual(
            sharpline.query_string({"league": "nba", "markets": ["moneyline", "spread"], "main": True, "x": None}),
            "?league=nba&markets=moneyline%2Cspread&main=true",
        )

    def test_event_stream_fields_comments_and_multiline_data(self):
        body = io.BytesIO(b": hello\nretry: 1500\n\nid: a-1\nevent: price\ndata: {\"a\":\ndata: 1}\n\n:ping\r\nid: a-2\r\ndata: x\r\n\r\n")
        retries = []
        events = list(sharpline.parse_event_stream(iter(body.readline, b""), retries.append))
        self.assertEqual(retries, [1500])
        self.assertEqual([(e.event, e.id, e.data) for e in events], [("price", "a-1", '{"a":\n1}'), ("message", "a-2", "x")])
        self.assertEqual(events[0].json(), {"a": 1})


class Calls(unittest.TestCase):
    def setUp(self):
        self.client = sharpline.Client(os.environ["SHARPLINE_API_KEY"], base_url=os.environ["SHARPLINE_BASE_URL"])

    def test_odds_of_a_league_with_list_and_boolean_filters(self):
        answer = self.client.odds(league="nba", markets=["moneyline"], main=True)
        self.assertEqual(len(answer["events"]), 1)
        event = answer["events"][0]
        self.assertEqual(event["event"]["home"]["name"], "Boston Celtics")
        self.assertEqual({market["type"] for market in event["markets"]}, {"moneyline"})
        self.assertEqual(self.client.last_rate_limit.limit, 2000)
        self.assertLess(self.client.last_rate_limit.remaining, 2000)

    def test_reference_calls(self):
        self.assertIn("basketball", [sport["key"] for sport in self.client.sports()["sports"]])
        self.assertIn("nba", [league["key"] for league in self.client.leagues()["leagues"]])
        event_id = self.client.events(league="nba")["events"][0]["id"]
        self.assertEqual(self.client.event(event_id)["event"]["id"], event_id)
        self.assertEqual(self.client.me()["plan"]["id"], "enterprise")

    def test_problem_details_become_a_typed_error(self):
        with self.assertRaises(sharpline.SharplineError) as caught:
            self.client.odds(league="nba", markets=["nonsense"])
        error = caught.exception
        self.assertEqual((error.status, error.code), (400, "validation"))
        self.assertIn("markets.0", error.problem["errors"])

        unknown = sharpline.Client("sl_live_" + "0" * 32, base_url=os.environ["SHARPLINE_BASE_URL"])
        with self.assertRaises(sharpline.SharplineError) as caught:
            unknown.sports()
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "api-key-unknown"))

        starter = sharpline.Client(os.environ["SHARPLINE_STARTER_KEY"], base_url=os.environ["SHARPLINE_BASE_URL"])
        with self.assertRaises(sharpline.SharplineError) as caught:
            starter.clv([{"event_id": "x", "market": "moneyline", "outcome": "home", "price": 150}])
        self.assertEqual((caught.exception.status, caught.exception.code), (403, "plan-feature"))
        self.assertIn("enterprise", caught.exception.problem["plans"])


class Streaming(unittest.TestCase):
    def test_resumes_with_last_event_id_after_a_drop(self):
        client = sharpline.Client(os.environ["SHARPLINE_API_KEY"], base_url=os.environ["SHARPLINE_STREAM_URL"])
        resumed_after = []
        seen = []
        prices_after_resume = 0
        stream = client.stream(league="nba", types=["price"], reconnect_delay=0.2, read_timeout=10,
                               on_reconnect=resumed_after.append)
        try:
            for event in stream:
                seen.append(event)
                if resumed_after and event.event == "price":
                    prices_after_resume += 1
                    if prices_after_resume >= 5:
                        break
        finally:
            stream.close()
        kinds = [event.event for event in seen]
        self.assertEqual(kinds[0], "snapshot")
        # One drop, one resume, after the last event received before it, and no second snapshot.
        self.assertEqual(len(resumed_after), 1)
        before_drop = [event.id for event in seen[: len(seen) - prices_after_resume]]
        self.assertEqual(resumed_after[0], before_drop[-1])
        self.assertEqual(kinds.count("snapshot"), 1)
        ids = [event.id for event in seen]
        self.assertEqual(len(set(ids)), len(ids))
        self.assertEqual(seen[-1].json()["event_id"], seen[1].json()["event_id"])


if __name__ == "__main__":
    unittest.main()
