"""A conversation as a file: JSON (the API's own shapes) or Markdown (to read or paste).

Both hold the session and every message of its current path, in order, each answer with its
sources and its rating. Times are UTC in JSON (as everywhere in the API) and Asia/Seoul in
Markdown, where a person reads them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from chatbot_api.domain.context import KST
from chatbot_api.entrypoints.schemas import ConversationExport, MessagePublic, SessionPublic
from chatbot_api.service_layer.sessions import MessageView
from techai_shared.conversation.model import SessionState

ExportFormat = Literal["json", "markdown"]
MEDIA_TYPES: dict[str, str] = {"json": "application/json",
                               "markdown": "text/markdown; charset=utf-8"}
_EXTENSIONS = {"json": "json", "markdown": "md"}
_ROLES = {"user": "You", "assistant": "TechAI"}


def filename(session: SessionState, fmt: ExportFormat) -> str:
    """techai-chat-<day it started, Seoul>-<first 8 of the id>.<ext>: ASCII, so every client
    saves it under this name."""
    day = session.created_at.astimezone(KST).date().isoformat()
    return f"techai-chat-{day}-{session.session_id[:8]}.{_EXTENSIONS[fmt]}"


def as_json(session: SessionState, views: Sequence[MessageView], now: datetime) -> bytes:
    document = ConversationExport(
        exported_at=now, session=SessionPublic.of(session),
        messages=[MessagePublic.of(v.message, v.feedback, v.siblings) for v in views])
    return json.dumps(document.model_dump(mode="json", by_alias=True), ensure_ascii=False,
                      indent=2).encode()


def _seoul(moment: datetime) -> str:
    return moment.astimezone(KST).strftime("%Y-%m-%d %H:%M")


def _source_line(n: int, source: dict[str, Any]) -> str:
    title = str(source.get("title") or source.get("documentId") or "source").replace("\n", " ")
    line = f"{n}. [{title}]({source['url']})" if source.get("url") else f"{n}. {title}"
    extra = [str(source[k]) for k in ("collection", "status") if source.get(k)]
    return line + (f" ({', '.join(extra)})" if extra else "")


def as_markdown(session: SessionState, views: Sequence[MessageView], now: datetime) -> bytes:
    lines = [f"# {session.title}", "",
             f"- Session: `{session.session_id}`",
             f"- Started: {_seoul(session.created_at)} (Asia/Seoul)",
             f"- Messages: {len(views)}",
             f"- Exported: {_seoul(now)} (Asia/Seoul)", ""]
    for view in views:
        m = view.message
        lines += ["---", "", f"### {_ROLES.get(m.role, m.role)} · {_seoul(m.created_at)}", "",
                  m.content, ""]
        if m.sources:
            lines += ["**Sources**", ""]
            lines += [_source_line(n, s) for n, s in enumerate(m.sources, 1)]
            lines.append("")
        if view.feedback is not None:
            f = view.feedback
            rating = "👍 up" if f.rating == "up" else "👎 down"
            detail = ", ".join(f.reasons) + (f" — {f.comment}" if f.comment else "")
            lines += [f"**Rating:** {rating}" + (f" ({detail})" if detail else ""), ""]
    return "\n".join(lines).encode()
