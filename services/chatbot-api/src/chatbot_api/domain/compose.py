"""Answers composed without a model (retrieval-only answers, the small-talk replies), and the list
of sources an answer's text ends with where its client shows only text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatbot_api.domain.context import KIND_EN, KIND_KO, details
from chatbot_api.domain.hits import SearchHit

SNIPPET_CHARS = 160


def retrieval_only_answer(hits: Sequence[SearchHit], korean: bool) -> str:
    """The top sources as a numbered list (title, status, dates, snippet, URL) in the user's language."""
    head = ("언어 모델이 설정되어 있지 않아 카탈로그 검색 결과로 답변드립니다." if korean
            else "No language model is configured, so this answer comes from the catalog search.")
    if not hits:
        return head + (" 관련된 대회, 뉴스나 북마크를 찾지 못했습니다. 다른 표현으로 물어봐 주세요." if korean
                       else " I found no related contests, news or bookmarks; try other words.")
    head += " 관련 항목:" if korean else " Related items:"
    return "\n\n".join([head, *(_item(i, hit, korean) for i, hit in enumerate(hits, 1))])


def _item(number: int, hit: SearchHit, korean: bool) -> str:
    kind = (KIND_KO if korean else KIND_EN)[hit.collection]
    lines = [f"{number}. [{kind}] {hit.title}", *(f"   {d}" for d in details(hit, korean))]
    snippet = hit.snippet.strip()
    if snippet:
        lines.append("   " + (snippet if len(snippet) <= SNIPPET_CHARS else snippet[:SNIPPET_CHARS] + "…"))
    if hit.url:
        lines.append(f"   {hit.url}")
    return "\n".join(lines)


def nothing_in_window_answer(window: str, korean: bool) -> str:
    """The answer to a question whose dates hold nothing: it names them, and cites nothing
    outside them as if it matched."""
    if korean:
        return (f"{window}에 해당하는 항목은 카탈로그에서 찾지 못했어요. 기간을 바꾸거나 날짜 없이 "
                "다시 물어봐 주세요.")
    return (f"I found nothing in the catalog for {window}. Try other dates, or ask without "
            "them.")


def outside_catalog_answer(korean: bool) -> str:
    """The answer, without a model, to a question nothing in the catalog fits."""
    if korean:
        return ("이 질문은 제가 찾아볼 수 있는 범위 밖이에요. 개발자 대회와 해커톤, IT 뉴스, 저장해 두신 "
                "북마크에 대해 물어보시면 카탈로그에서 찾아 알려 드릴게요.")
    return ("That is outside what I can look up. I can help with developer contests and "
            "hackathons, IT news, and the items you bookmarked.")


def small_talk_answer(korean: bool) -> str:
    """The reply to a greeting or small talk when no model is configured."""
    if korean:
        return ("안녕하세요! 개발자 대회와 해커톤, IT 뉴스, 저장해 두신 북마크에 대해 물어보시면 "
                "카탈로그에서 찾아 알려 드릴게요.")
    return ("Hello! Ask me about developer contests and hackathons, IT news, or the items you "
            "bookmarked, and I will look them up in the catalog.")


def sources_footer(sources: Sequence[Mapping[str, Any]], korean: bool) -> str:
    """The cited items as the end of an answer's text ("[1] title - url"), for a client that shows
    only the text (the OpenAI-compatible endpoint): the numbers are those the model cites by."""
    lines = [f"[{i}] {s.get('title', '')}" + (f" - {s['url']}" if s.get("url") else "")
             for i, s in enumerate(sources, 1)]
    return "\n\n" + ("출처:" if korean else "Sources:") + "\n" + "\n".join(lines)
