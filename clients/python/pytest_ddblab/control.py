"""A client for the control API of `ddblab serve` (the /_ddblab/ endpoints).

    control = DdblabControl("http://127.0.0.1:8000", token)
    control.advance_clock("2m")          # {"now": ..., "deleted": N}
    control.put_fault_plan({"rules": [...]})

A server started with --namespace access-key (the plugin's) keeps a
database per access key: bind the client to one with `namespace="KEY"`
("KEY:REGION" under --namespace access-key+region), or
`control.for_namespace("KEY")`; every request then carries ?namespace=.

Each method is one HTTP request (urllib, a new connection each time) and
returns the server's JSON answer; a non-2xx answer raises DdblabControlError
carrying the server's error type and message. Standard library only.
Thread-safety: an instance holds only its endpoint and token; calls from
several threads are independent requests.
"""
from __future__ import annotations

import json
import os
import ssl
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional, Union

TOKEN_HEADER = "X-Ddblab-Token"


class DdblabControlError(Exception):
    """A control request that ddblab refused or could not answer.

    Attributes: `status` (the HTTP status, None when the server could not be
    reached), `type` (e.g. "ValidationException", None when the answer has
    none), `message` (the server's message, byte for byte), `method`, `path`.
    """

    def __init__(self, method: str, path: str, status: Optional[int],
                 type_: Optional[str], message: str) -> None:
        self.method = method
        self.path = path
        self.status = status
        self.type = type_
        self.message = message
        where = f"HTTP {status}" if status is not None else "no answer"
        kind = f" {type_}" if type_ else ""
        super().__init__(f"ddblab {method} {path}: {where}{kind}: {message}")


class DdblabControl:
    """The /_ddblab/ control endpoints of one `ddblab serve`.

    `endpoint` is the server's URL ("http://127.0.0.1:PORT"); `token` is its
    control token (sent as X-Ddblab-Token; default $DDBLAB_CONTROL_TOKEN, and
    none for a server started with --control open). `ssl_context` is used
    for an https endpoint. `namespace` ("KEY" or "KEY:REGION"; None: none)
    is sent as ?namespace= with every request.
    """

    def __init__(self, endpoint: str, token: Optional[str] = None,
                 timeout: float = 30.0,
                 ssl_context: Optional[ssl.SSLContext] = None,
                 namespace: Optional[str] = None) -> None:
        self.endpoint = endpoint.rstrip("/")
        self.token = token if token is not None else os.environ.get(
            "DDBLAB_CONTROL_TOKEN") or None
        self.timeout = timeout
        self.ssl_context = ssl_context
        self.namespace = namespace

    def __repr__(self) -> str:
        if self.namespace is None:
            return f"DdblabControl({self.endpoint!r})"
        return f"DdblabControl({self.endpoint!r}, namespace={self.namespace!r})"

    def for_namespace(self, namespace: Optional[str]) -> "DdblabControl":
        """The same server's control API, bound to `namespace`."""
        return DdblabControl(self.endpoint, self.token or "", self.timeout,
                             self.ssl_context, namespace)

    def namespaces(self) -> Dict[str, Any]:
        """GET /_ddblab/namespaces: {"mode": "shared"|"access-key"|
        "access-key+region", "namespaces": [{"name", "access_key"[,
        "region"]}, ...]}."""
        return self._call("GET", "/_ddblab/namespaces")

    # -- health and clock ---------------------------------------------------

    def health(self) -> str:
        """GET /_ddblab/health: the health line (needs no token)."""
        return self._call("GET", "/_ddblab/health", raw=True)

    def clock(self) -> Dict[str, Any]:
        """GET /_ddblab/clock: {"now": epoch seconds, "mode": "manual"|"system"}."""
        return self._call("GET", "/_ddblab/clock")

    def now(self) -> float:
        """The server's clock, in epoch seconds (an int when whole)."""
        return self.clock()["now"]

    def advance_clock(self, by: Union[str, int, float]) -> Dict[str, Any]:
        """Moves the manual clock forward by a duration ("90s", "15m", "2h",
        "1d") or a number of seconds, sweeps TTL and delivers hosted mappings
        before answering: {"now": ..., "deleted": items the sweep deleted}.
        A server on the system clock answers 400 (start it with --clock
        manual, the plugin's default)."""
        return self._call("POST", "/_ddblab/clock", {"advance": by})

    def set_clock(self, epoch_seconds: Union[int, float]) -> Dict[str, Any]:
        """Sets the manual clock to `epoch_seconds` (never backwards), then as
        advance_clock: {"now": ..., "deleted": ...}."""
        return self._call("POST", "/_ddblab/clock", {"set": epoch_seconds})

    # -- TTL ----------------------------------------------------------------

    def ttl_sweep(self) -> int:
        """POST /_ddblab/ttl/sweep: deletes the items due now; their number."""
        return self._call("POST", "/_ddblab/ttl/sweep", {})["deleted"]

    def ttl_status(self) -> Dict[str, Any]:
        """GET /_ddblab/ttl: {"now", "delay", "tables": {name: {"waiting",
        "next_due"}}}."""
        return self._call("GET", "/_ddblab/ttl")

    # -- faults -------------------------------------------------------------

    def put_fault_plan(self, plan: Dict[str, Any]) -> Dict[str, Any]:
        """Replaces the fault plan ({"rules": [...]}, docs/faults.md); returns
        the plan in force with its counters. A bad plan raises (400
        ValidationException naming the path) and the old plan stays."""
        return self._call("POST", "/_ddblab/faults", plan)

    def get_fault_plan(self) -> Dict[str, Any]:
        """The plan in force, each rule with its "matched" and "fired"."""
        return self._call("GET", "/_ddblab/faults")

    def clear_fault_plan(self) -> Dict[str, Any]:
        """Removes every rule; returns {"rules": []}."""
        return self._call("DELETE", "/_ddblab/faults")

    def fault_log(self) -> List[Dict[str, Any]]:
        """Every fault fired, in order: seq, time, operation, table, keys,
        rule, effect."""
        return self._call("GET", "/_ddblab/faults/log")["faults"]

    # -- streams ------------------------------------------------------------

    def split_shard(self, table_name: str,
                    shard_id: Optional[str] = None) -> Dict[str, Any]:
        """Splits the open stream shards of `table_name` (or only
        `shard_id`): {"closed": [...], "created": [...]}."""
        body: Dict[str, Any] = {"TableName": table_name}
        if shard_id is not None:
            body["ShardId"] = shard_id
        return self._call("POST", "/_ddblab/streams/split", body)

    # -- reset --------------------------------------------------------------

    def reset(self, *, clock: Optional[Union[int, float]] = None,
              seed: Optional[int] = None, ttl_delay: Optional[str] = None,
              stream_shards: Optional[int] = None,
              shard_rollover: Optional[str] = None) -> Dict[str, Any]:
        """POST /_ddblab/reset: empties tables, streams, mappings, the fault
        plan and capacity; optionally sets the clock (manual clock only),
        seed, TTL delay, stream shards and shard rollover. Returns the
        settings in force ({"now", "mode", "seed", "ttl_delay",
        "stream_shards", "shard_rollover"})."""
        body = {k: v for k, v in (("clock", clock), ("seed", seed),
                                  ("ttl_delay", ttl_delay),
                                  ("stream_shards", stream_shards),
                                  ("shard_rollover", shard_rollover))
                if v is not None}
        return self._call("POST", "/_ddblab/reset", body)

    # -- the one request ----------------------------------------------------

    def _call(self, method: str, path: str, body: Any = None,
              raw: bool = False) -> Any:
        data = None if body is None else json.dumps(body).encode()
        url = self.endpoint + path
        if self.namespace is not None and not raw:
            url += "?namespace=" + urllib.parse.quote(self.namespace, safe="")
        request = urllib.request.Request(url, data=data, method=method)
        if method != "GET":
            # The server refuses (415) a control request of any other type.
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header(TOKEN_HEADER, self.token)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout,
                                        context=self.ssl_context) as answer:
                text = answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            type_, message = _error_fields(text)
            raise DdblabControlError(method, path, error.code, type_,
                                     message) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise DdblabControlError(
                method, path, None, None,
                f"cannot reach {self.endpoint}: {reason}") from None
        return text if raw else json.loads(text)


def _error_fields(text: str):
    """(type, message) of an error answer: the JSON's fields when it has
    them, else the body as the message."""
    try:
        body = json.loads(text)
    except ValueError:
        return None, text.strip()
    if not isinstance(body, dict):
        return None, text.strip()
    return body.get("type"), str(body.get("message", text.strip()))
