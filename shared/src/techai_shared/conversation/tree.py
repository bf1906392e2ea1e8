"""The shape of a session's message tree: plain functions over (id, parent) pairs, no I/O.

Each message follows its parent (a session's first questions have none). A regenerated answer is a
sibling of the answer it replaces; an edited question a sibling of the question it replaces. Of
siblings, the one written last is the latest; a branch made current shows its deepest descendant
along the latest children.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Node:
    message_id: str
    parent_message_id: str | None
    role: str
    order: int  # the event version it was written at: siblings in the order they were written


class Tree:
    def __init__(self, nodes: Iterable[Node]) -> None:
        self.nodes = {n.message_id: n for n in nodes}
        children: dict[str | None, list[Node]] = defaultdict(list)
        for n in self.nodes.values():
            children[n.parent_message_id].append(n)
        self._children = {k: sorted(v, key=lambda n: n.order) for k, v in children.items()}

    def __contains__(self, message_id: object) -> bool:
        return message_id in self.nodes

    def path_to(self, message_id: str) -> tuple[str, ...]:
        """The ids from the root to `message_id`, both included."""
        path: list[str] = []
        current: str | None = message_id
        while current is not None and current in self.nodes and len(path) <= len(self.nodes):
            path.append(current)
            current = self.nodes[current].parent_message_id
        return tuple(reversed(path))

    def branch_of(self, message_id: str) -> tuple[str, ...]:
        """The path through `message_id` to its deepest descendant along the latest children."""
        path = list(self.path_to(message_id))
        while children := self._children.get(path[-1]):
            path.append(children[-1].message_id)
        return tuple(path)

    def siblings(self, message_id: str) -> list[str]:
        """The ids of the messages with the same parent, `message_id` among them, oldest first."""
        node = self.nodes.get(message_id)
        if node is None:
            return [message_id]
        return [n.message_id for n in self._children.get(node.parent_message_id, [])]
