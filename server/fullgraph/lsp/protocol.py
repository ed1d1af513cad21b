"""The JSON-RPC layer: every malformed request gets an error response and the server keeps serving.

pygls drops a message whose params do not match the LSP types (or whose body is not JSON) after
logging it, so the client waits forever for an answer. Here a request that cannot be read is
answered with -32602 (invalid params), a body that is not JSON with -32700 (parse error), and a
message that is not a JSON-RPC object with -32600 (invalid request); notifications, which take
no answer, are logged.
"""

from __future__ import annotations

import json
import logging

import attrs
from lsprotocol import types
from pygls.protocol import LanguageServerProtocol

log = logging.getLogger(__name__)

INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
PARSE_ERROR = -32700
NOT_JSON = (json.JSONDecodeError, UnicodeDecodeError)


@attrs.define
class Unreadable:
    """A message that could not be turned into its LSP type; ``id`` is None for notifications."""

    id: int | str | None
    method: str
    code: int
    reason: str
    jsonrpc: str = "2.0"


def _request_id(data: dict):
    """The message's id when it is a valid JSON-RPC id, else None."""
    value = data.get("id")
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


class FullgraphProtocol(LanguageServerProtocol):
    """pygls' protocol, answering requests it cannot read instead of dropping them."""

    def structure_message(self, data):
        if not isinstance(data, dict) or "jsonrpc" not in data:
            return data  # a nested object, or a message checked in handle_message
        method = data.get("method")
        if "method" in data and (not isinstance(method, str) or ("id" in data and _request_id(data) is None)):
            return Unreadable(_request_id(data), str(method), INVALID_REQUEST, "not a valid JSON-RPC request")
        try:
            return super().structure_message(data)
        except Exception as error:  # noqa: BLE001 - pygls raises JsonRpcInvalidParams or JsonRpcInternalError
            cause = error.__cause__ or error
            reason = f"invalid params for {method}: {type(cause).__name__}: {cause}"
            return Unreadable(_request_id(data) if "id" in data else None, str(method), INVALID_PARAMS, reason)

    def handle_message(self, message):
        if isinstance(message, Unreadable):
            self._reject(message.id if message.id is not None or message.code == INVALID_REQUEST else None,
                         message.code, message.reason, notify=message.id is None and message.code != INVALID_REQUEST)
            return
        if not attrs.has(type(message)):  # valid JSON, but not a JSON-RPC message object
            self._reject(None, INVALID_REQUEST, "not a JSON-RPC 2.0 message object")
            return
        super().handle_message(message)

    def reject_unparsable(self, error: Exception) -> bool:
        """Answer a body that is not JSON with a parse error; False for any other error."""
        if not isinstance(error, NOT_JSON):
            return False
        self._reject(None, PARSE_ERROR, f"parse error: {error}")
        return True

    def _reject(self, msg_id, code: int, reason: str, notify: bool = False) -> None:
        log.warning("%s", reason)
        if notify:  # a notification takes no response
            return
        self._send_response(msg_id, error=types.ResponseError(code=code, message=reason))
