"""The namespace a test's clients sign into (fixture `ddblab_namespace`).

A `ddblab serve --namespace access-key` (the plugin's default) keeps a
database per access key: tables, streams, TTL queue, fault plan, capacity.
A DdblabNamespace carries the credentials that land in one, and a control
client bound to it:

    boto3.client("dynamodb", **ddblab_namespace.client_kwargs)
    ddblab_namespace.control.put_fault_plan({...})

Standard library only. Thread-safety: an immutable value.
"""
from __future__ import annotations

import dataclasses
import secrets
from typing import Dict, Optional

from .control import DdblabControl


@dataclasses.dataclass(frozen=True)
class DdblabNamespace:
    """`endpoint`, the credentials (`access_key`, `secret_key`, `region`),
    `name` (what ?namespace= says: "KEY", "KEY:REGION", or None on a shared
    server) and `control` (bound to it)."""

    endpoint: str
    access_key: str
    secret_key: str
    region: str
    name: Optional[str]
    control: DdblabControl

    @property
    def client_kwargs(self) -> Dict[str, str]:
        """Keyword arguments for boto3.client / boto3.resource."""
        return {"endpoint_url": self.endpoint, "region_name": self.region,
                "aws_access_key_id": self.access_key,
                "aws_secret_access_key": self.secret_key}


def fresh_access_key() -> str:
    """An access key id no other test of the session signs with."""
    return "ddblabtest" + secrets.token_hex(8)
