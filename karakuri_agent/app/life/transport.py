"""The offline town as an httpx transport: the agent's real client, answered in process, no socket opened.

The contract's two calls (`GET /agents/notifications/{id}`, `POST
/agents/command`) go to the town's own endpoints (`EngineTown.handle_get`,
`handle_post`); any other request is a 404, as the server answers it. Each
answer's `Date` is the town's clock, so the agent's world clock follows the
town's (CONTRACT §9).
"""

from __future__ import annotations

import email.utils
import json
from datetime import timezone

import httpx

from karakuri_agent.town.town import EngineTown

NOTIFICATIONS = "/agents/notifications/"
COMMAND = "/agents/command"


class TownTransport(httpx.BaseTransport):
    """Every request the client makes, answered by `town` (under `base_path`, the configured URL's path)."""

    def __init__(self, town: EngineTown, base_path: str = "/api") -> None:
        self.town = town
        self.base_path = base_path.rstrip("/")

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path[len(self.base_path):] if request.url.path.startswith(self.base_path) else ""
        authorization = request.headers.get("Authorization")
        if request.method == "GET" and path.startswith(NOTIFICATIONS):
            status, body = self.town.handle_get(path[len(NOTIFICATIONS):], authorization)
        elif request.method == "POST" and path == COMMAND:
            try:
                payload = json.loads(request.read() or b"null")
            except ValueError:
                status, body = 400, {"error": "invalid_request", "message": "Request body must be valid JSON."}
            else:
                status, body = self.town.handle_post(payload, authorization)
        else:
            status, body = 404, {"error": "not_found", "message": "No such endpoint."}
        date = email.utils.format_datetime(self.town.now.astimezone(timezone.utc), usegmt=True)
        return httpx.Response(status, json=body, headers={"Date": date}, request=request)
