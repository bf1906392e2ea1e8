"""What a question says about time: "latest" news, "finished" contests. Plain Python, no I/O.

A vector does not encode "latest" or "already finished" usefully (every article is news, every
contest a contest), so these words steer the search instead: recent news are ranked higher, contests
of the asked status ("now", "upcoming", "finished") too, a question about finished contests also
searches the ENDED ones, and a question about "my saved" items puts the bookmarks first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RECENT = re.compile(r"\b(latest|recent(ly)?|newest|new|this week|today)\b|최신|최근|요즘|새로|새 ", re.I)
_NOW = re.compile(r"\b(now|currently|ongoing|open|right now)\b|지금|현재|진행 ?중|참여할 수|참여 가능", re.I)
_UPCOMING = re.compile(r"\b(upcoming|coming up|soon|next month|next week)\b|다음 ?달|다가오는|곧|예정", re.I)
_SAVED = re.compile(
    r"\b(my (saved|bookmarks?)|i saved|bookmark(s|ed)?|saved)\b|북마크|저장해 ?[둔뒀놓]|적어 ?[둔뒀]|메모",
    re.I,
)
_ENDED = re.compile(
    r"\b(finished|ended|past|previous|already (held|over|finished|ended))\b|끝난|종료된|지난 대회|열렸던",
    re.I,
)


@dataclass(frozen=True)
class QueryIntent:
    wants_recent: bool = False
    wants_ended: bool = False
    wants_ongoing: bool = False
    wants_upcoming: bool = False
    wants_saved: bool = False

    def preferred_statuses(self) -> frozenset[str]:
        """The contest statuses the question asks for (empty: no preference)."""
        wanted = {"ENDED"} if self.wants_ended else set()
        wanted |= {"ONGOING"} if self.wants_ongoing else set()
        wanted |= {"UPCOMING"} if self.wants_upcoming else set()
        return frozenset(wanted)


def read_intent(query: str) -> QueryIntent:
    """The time words of `query`."""
    return QueryIntent(
        wants_recent=bool(_RECENT.search(query)),
        wants_ended=bool(_ENDED.search(query)),
        wants_ongoing=bool(_NOW.search(query)),
        wants_upcoming=bool(_UPCOMING.search(query)),
        wants_saved=bool(_SAVED.search(query)),
    )
