"""docs/configuration.md against the settings classes: every variable each class reads is in its
table, under the name the class reads it by and with the default the code has; the page names no
variable the code lacks. Also the relative links of README.md and docs/ point at files that exist."""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from devstack.config import StackSettings
from pydantic import AliasChoices
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings

from chatbot_api.settings import ChatbotSettings
from command_api.settings import CommandSettings
from query_sync.settings import SyncSettings
from techai_shared.settings import CommonSettings

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
CONFIGURATION = ROOT / "docs" / "configuration.md"

# Each class and the class whose variables it inherits (documented in that class's table).
CLASSES: dict[type[BaseSettings], type[BaseSettings] | None] = {
    CommonSettings: None,
    ChatbotSettings: CommonSettings,
    CommandSettings: CommonSettings,
    SyncSettings: CommonSettings,
    StackSettings: None,
}
OTHER_SECTION = "Read without a settings class"

_ROW = re.compile(r"^\|\s*`(?P<name>[A-Za-z0-9_]+)`\s*\|(?P<cells>.*)\|\s*$")


# -- what the code says -----------------------------------------------------------------------


def env_names(cls: type[BaseSettings], name: str, field: FieldInfo) -> list[str]:
    """The variables a field is read from: its validation alias(es), else prefix + name."""
    alias = field.validation_alias
    if isinstance(alias, str):
        return [alias.upper()]
    if isinstance(alias, AliasChoices):
        return [choice.upper() for choice in alias.choices if isinstance(choice, str)]
    prefix = str(cls.model_config.get("env_prefix") or "")
    return [f"{prefix}{name}".upper()]


def own_fields(cls: type[BaseSettings]) -> dict[str, FieldInfo]:
    """The fields a class adds, or declares again with another default, over its parent's."""
    parent = CLASSES[cls]
    if parent is None:
        return dict(cls.model_fields)
    inherited = parent.model_fields
    return {name: field for name, field in cls.model_fields.items()
            if name not in inherited or default_of(field) != default_of(inherited[name])}


def default_of(field: FieldInfo) -> Any:
    return field.get_default(call_default_factory=True)


def render(value: Any) -> str:
    """A default as the tables write it (see the conventions at the top of the page)."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, Path):
        path = value.resolve()
        value = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()
    if isinstance(value, list | tuple):
        if not value:
            return "empty"
        return "`" + ",".join(str(v) for v in value) + "`"
    if value == "":
        return '`""`'
    return f"`{value}`"


def expected(cls: type[BaseSettings]) -> dict[str, str]:
    """Variable -> rendered default of every variable documented in the class's table."""
    table: dict[str, str] = {}
    for name, field in own_fields(cls).items():
        for variable in env_names(cls, name, field):
            table[variable] = render(default_of(field))
    return table


# -- what the page says -----------------------------------------------------------------------


def sections(text: str) -> dict[str, str]:
    """Heading -> body of each `## ` section."""
    parts = re.split(r"^## +(.+?)\s*$", text, flags=re.MULTILINE)
    return {heading.strip(): body for heading, body in zip(parts[1::2], parts[2::2], strict=True)}


def table_rows(body: str) -> list[tuple[str, list[str]]]:
    """(variable, [cells after the variable]) of every table row that starts with a `NAME`."""
    rows = []
    for line in body.splitlines():
        match = _ROW.match(line.strip())
        if match:
            rows.append((match["name"], [c.strip() for c in match["cells"].split("|")]))
    return rows


def section_of(cls: type[BaseSettings], found: dict[str, str]) -> str:
    headings = [h for h in found if f"`{cls.__name__}`" in h]
    assert len(headings) == 1, f"docs/configuration.md needs one `## `{cls.__name__}`` section"
    return found[headings[0]]


@pytest.fixture(scope="module")
def page() -> dict[str, str]:
    return sections(CONFIGURATION.read_text(encoding="utf-8"))


# -- the checks -------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", list(CLASSES), ids=lambda c: c.__name__)
def test_each_variable_is_documented_with_its_default(cls: type[BaseSettings], page: dict[str, str]) -> None:
    rows = table_rows(section_of(cls, page))
    names = [name for name, _ in rows]
    assert len(names) == len(set(names)), f"{cls.__name__}: a variable is listed twice"
    documented = {name: cells[0] for name, cells in rows}
    want = expected(cls)
    missing = sorted(set(want) - set(documented))
    extra = sorted(set(documented) - set(want))
    assert not missing, f"{cls.__name__}: not in docs/configuration.md: {missing}"
    assert not extra, f"{cls.__name__}: in docs/configuration.md but not read by the class: {extra}"
    wrong = {name: (documented[name], default) for name, default in want.items()
             if documented[name] != default}
    assert not wrong, f"{cls.__name__}: defaults differ, (doc, code): {wrong}"
    assert all(len(cells) >= 2 and cells[1] for _, cells in rows), "every variable needs a meaning"


def test_the_page_names_no_variable_the_code_lacks(page: dict[str, str]) -> None:
    known = {name for cls in CLASSES for name in expected(cls)}
    other = {name for name, _ in table_rows(page[OTHER_SECTION])}
    listed = {name for body in page.values() for name, _ in table_rows(body)}
    assert listed <= known | other, f"unknown variables: {sorted(listed - known - other)}"


def test_variables_read_without_a_settings_class(page: dict[str, str]) -> None:
    rows = table_rows(page[OTHER_SECTION])
    assert rows
    for name, cells in rows:
        default, source = cells[0], cells[1].strip("`")
        code = (ROOT / source).read_text(encoding="utf-8")
        match = re.search(rf"environ\.get\(\s*\"{name}\"\s*,\s*\"([^\"]*)\"\s*\)", code)
        assert match, f"{name}: {source} does not read it with os.environ.get"
        assert default == render(match[1]), f"{name}: default {default}, code {match[1]!r}"


def test_relative_links_of_the_documentation_resolve() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = []
    for page_path in pages:
        for target in re.findall(r"\]\(([^)\s]+)\)", page_path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page_path.parent / target.split("#", 1)[0]).resolve()
            if path.name == "api.md" and path.parent == ROOT / "docs":
                continue  # written separately; linked before it lands
            if not path.exists():
                broken.append(f"{page_path.relative_to(ROOT)} -> {target}")
    assert not broken, f"broken links: {broken}"
