"""``urlsift._record.record``: each record behaves as the dataclass it stands for.

Every class made by ``record`` is checked against a real ``@dataclass(frozen=..., slots=True)``
of the same fields and defaults (its twin): signature, repr, equality, hash, refused
assignment, pickling, ``dataclasses.fields``/``replace``/``asdict``, slots, match args and
``help()``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pickle
import pydoc
import subprocess
import sys
from typing import Any

import pytest

from urlsift._record import _RECORDS, field, maker, record, replace

MODULES = (
    "urlsift._model",
    "urlsift.grammar.context",
    "urlsift.extraction.rejoin",
    "urlsift.validation.schemes",
    "urlsift.validation.rules",
    "urlsift.sources.compress",
    "urlsift.sources.reading",
    "urlsift.sources.options",
    "urlsift.sources.mbox",
    "urlsift.engines.work",
    "urlsift.output.summary",
    "urlsift.cli.scan",
)
for _name in MODULES:
    importlib.import_module(_name)
RECORDS = sorted(
    (cls for cls in _RECORDS if cls.__module__.startswith("urlsift.")),
    key=lambda cls: f"{cls.__module__}.{cls.__qualname__}",
)


def _twin(cls: type) -> Any:
    # The dataclass the record stands for, from the stdlib's own reading of its fields.
    namespace: dict[str, object] = {
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__annotations__": cls.__annotations__,
        "__doc__": "twin",
    }
    for spec in dataclasses.fields(cls):
        if spec.default is not dataclasses.MISSING:
            namespace[spec.name] = dataclasses.field(default=spec.default)
        elif spec.default_factory is not dataclasses.MISSING:
            namespace[spec.name] = dataclasses.field(default_factory=spec.default_factory)
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    return dataclasses.dataclass(frozen=frozen, slots=True)(type(cls.__name__, (), namespace))


def test_the_records_of_a_scan_are_all_checked() -> None:
    assert len(RECORDS) >= 22


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_a_record_behaves_as_its_dataclass(cls: Any) -> None:
    twin = _twin(cls)
    assert str(inspect.signature(cls)) == str(inspect.signature(twin))
    assert cls.__slots__ == twin.__slots__
    assert cls.__match_args__ == twin.__match_args__
    assert repr(cls.__dataclass_params__) == repr(twin.__dataclass_params__)
    assert dataclasses.is_dataclass(cls)
    required = [p for p in inspect.signature(cls).parameters.values() if p.default is p.empty]
    too_many = [None] * (len(cls.__match_args__) + 1)
    for args in ([], too_many) if required else (too_many,):  # the same complaint, same words
        complaints = []
        for make in (cls, twin):
            with pytest.raises(TypeError) as refused:
                make(*args)
            complaints.append(str(refused.value))
        assert complaints[0] == complaints[1]
    names = cls.__match_args__
    values = {name: f"value of {name}" for name in names}
    made, other = cls(**values), twin(**values)
    assert type(made) is cls  # (a frozen record's slots are set while it is of its twin)
    assert not hasattr(made, "__dict__")
    assert repr(made) == repr(other)
    assert made == cls(**values)
    assert made != other  # another class, as for two dataclasses
    changed = cls(**{**values, names[0]: "changed"})
    assert made != changed
    assert dataclasses.replace(made, **{names[0]: "changed"}) == changed
    assert made.__replace__(**{names[0]: "changed"}) == changed  # copy.replace (3.13)
    assert replace(made, **{names[0]: "changed"}) == changed
    with pytest.raises(TypeError):
        replace(made, no_such_field=1)
    assert dataclasses.asdict(made) == dataclasses.asdict(other)
    assert dataclasses.astuple(made) == dataclasses.astuple(other)
    assert pickle.loads(pickle.dumps(made)) == made
    if cls.__dataclass_params__.frozen:
        assert hash(made) == hash(other)
        for obj in (made, other):  # the same errors, with the same words
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field"):
                setattr(obj, names[0], 1)
            with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field"):
                delattr(obj, names[0])
    else:
        assert cls.__hash__ is None
        setattr(made, names[0], "set")
        assert getattr(made, names[0]) == "set"


def _methods_help(cls: type) -> list[str]:
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext).splitlines()
    start = text.index(" |  Methods defined here:")
    # The pickling pair differs in how help() names it (dataclasses' module functions).
    # __replace__ too (dataclasses' is theirs from 3.13 on, a record's its own everywhere),
    # and the weak reference slot Python 3.10's slotted dataclasses keep (not 3.11's).
    left_out = ("state", "dataclass", "#", "__replace__", "weak")
    return [
        line for line in text[start:] if line.strip(" |") and not any(w in line for w in left_out)
    ]


def test_help_shows_the_methods_as_for_a_dataclass() -> None:
    @record
    class Made:
        """A record."""

        a: int
        b: str = "x"

    @dataclasses.dataclass(frozen=True, slots=True)
    class Made2:
        """A record."""

        a: int
        b: str = "x"

    assert _methods_help(Made) == [line.replace("Made2", "Made") for line in _methods_help(Made2)]


def test_a_default_factory_gives_each_record_its_own_value() -> None:
    @record(frozen=False)
    class Bag:
        """Counts."""

        items: list[int] = field(default_factory=list)

    one, two = Bag(), Bag()
    one.items.append(1)
    assert two.items == []
    assert str(inspect.signature(Bag)) == "(items: 'list[int]' = <factory>) -> None"
    with pytest.raises(ValueError, match="both"):
        field(default=1, default_factory=list)


def test_what_a_record_does_not_support_is_refused() -> None:
    class Base:
        pass

    with pytest.raises(TypeError, match="no base class"):

        @record
        class Derived(Base):
            """Derived."""

            a: int

    with pytest.raises(TypeError, match="__post_init__"):

        @record
        class Post:
            """Post."""

            a: int

            def __post_init__(self) -> None:
                pass

    with pytest.raises(TypeError, match="follows default"):

        @record
        class Order:
            """Order."""

            a: int = 1
            b: int  # type: ignore[misc]

    with pytest.raises(TypeError, match="ClassVar"):

        @record
        class Shared:
            """Shared."""

            a: int
            b: ClassVar[int] = 1  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(TypeError, match="super"):

        @record
        class Calls:
            """Calls."""

            a: int

            def __repr__(self) -> str:
                return super().__repr__()

    with pytest.raises(TypeError, match="docstring"):

        @record
        class Bare:
            a: int


def test_a_subclass_of_a_record_has_its_fields_as_for_a_dataclass() -> None:
    @record
    class Base:
        """A record."""

        a: int
        b: str = "x"

    class Sub(Base):
        pass

    assert [f.name for f in dataclasses.fields(Sub)] == ["a", "b"]
    assert [f.name for f in dataclasses.fields(Base(1))] == ["a", "b"]
    assert dataclasses.replace(Sub(1), b="y") == Sub(1, "y")
    # A subclass has a __dict__ (another layout than the record's twin): its fields are set
    # one by one, still refused afterwards, as a frozen dataclass's subclass.
    sub = Sub(2, "z")
    assert type(sub) is Sub
    assert (sub.a, sub.b) == (2, "z")
    sub.extra = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        sub.a = 3


def test_a_mutable_records_init_assigns_as_a_dataclasss() -> None:
    # A dataclass's __init__ of a mutable class assigns each field ("self.a = a"), so a
    # subclass's __setattr__ sees them; a frozen one's does not (object.__setattr__).
    @record(frozen=False)
    class Open:
        """A mutable record."""

        a: int
        b: list[int] = field(default_factory=list)

    seen: list[str] = []

    class Watched(Open):
        def __setattr__(self, name: str, value: object) -> None:
            seen.append(name)
            super().__setattr__(name, value)

    assert Watched(1).b == []
    assert seen == ["a", "b"]

    def refuse() -> list[int]:
        raise RuntimeError("no default")

    @record
    class Closed:
        """A frozen record whose default factory raises."""

        a: int
        b: list[int] = field(default_factory=refuse)

    with pytest.raises(RuntimeError):
        Closed(1)
    made = Closed(1, [2])
    assert type(made) is Closed
    assert made.b == [2]


def test_the_dataclass_metadata_is_made_only_when_read() -> None:
    code = (
        "import sys, urlsift\n"
        "urlsift.extract('see http://a.example/ now')\n"
        "assert 'dataclasses' not in sys.modules\n"
        "import dataclasses\n"
        "assert [f.name for f in dataclasses.fields(urlsift.Defect)] == "
        "['code', 'message', 'severity', 'offset']\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_a_records_maker_makes_what_its_class_makes(cls: Any) -> None:
    names = cls.__match_args__
    values = [f"value of {name}" for name in names]
    made, expected = maker(cls)(*values), cls(*values)
    assert type(made) is cls
    assert made == expected
    assert repr(made) == repr(expected)
    assert pickle.loads(pickle.dumps(made)) == expected
    if cls.__dataclass_params__.frozen:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, names[0], 1)
    with pytest.raises(TypeError):  # every field, no defaults
        maker(cls)(*values[:-1])
