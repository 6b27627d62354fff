"""Frozen slotted records that cost a tenth of a dataclass to define.

Promises: :func:`record` turns a class body of annotated fields into what
``@dataclass(frozen=True, slots=True)`` makes of it (``frozen=False`` for a mutable
record) with the same behaviour a caller sees: the same ``__init__`` parameters, defaults
and field order; ``repr``, ``==`` and ``hash`` over the fields; assignment and deletion
refused with :class:`dataclasses.FrozenInstanceError`; ``__slots__``, ``__match_args__``,
pickling; and ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass``, through
the real ``__dataclass_fields__`` and ``__dataclass_params__``. Type checkers read it as
a dataclass (``typing.dataclass_transform``), frozen ones included.

Strategy: ``dataclasses`` writes each method as source and compiles it (six ``exec`` calls
for a frozen record, and the class is made twice for its slots): about 0.6 ms a record,
so 13 ms of a text scan's start-up went to defining 22 records. Here the class is made
once, with its slots; its ``__init__`` (which stores each slot while a new frozen record
is of its twin class, a mutable class of the same slots, with the fields' defaults) is
code compiled once per shape and given the record's field names, and ``__repr__``,
``__eq__``, ``__hash__``, the frozen ``__setattr__``/``__delattr__`` and pickling are
closures over the field names.
The dataclass metadata (``__dataclass_fields__`` and ``__dataclass_params__``) is built
on first read, by ``dataclasses`` itself from the same annotations and defaults, so the
``Field`` objects are the stdlib's own, and ``dataclasses`` is imported only by a caller
that asks for them. ``tests/test_record.py`` holds every record to the dataclass it
replaces. Only what the records use is supported (plain fields, defaults, a
``default_factory``, a docstring; no base class, ``__post_init__``, ``ClassVar`` or
``super()``): anything else is refused when the class is defined (a ``TypeError``), not
silently made different.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from reprlib import recursive_repr
from types import CodeType, FunctionType
from typing import TYPE_CHECKING, Any, TypeVar, overload

_T = TypeVar("_T")

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> Callable[[_T], _T]:
        return lambda decorated: decorated


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


_MISSING: Any = _Missing()


class _Factory:
    # The default of a parameter whose field has a default_factory (shown as dataclasses
    # shows it in the signature).
    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _Factory()


class _FieldSpec:
    """What :func:`field` says about one field (its default or default factory)."""

    __slots__ = ("default", "default_factory")

    def __init__(self, default: object, default_factory: object) -> None:
        self.default = default
        self.default_factory = default_factory


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None) -> Any:
    """A field's default (``field(default=X)``) or default factory, as ``dataclasses.field``."""
    if default is not _MISSING and default_factory is not None:
        raise ValueError("cannot specify both default and default_factory")
    return _FieldSpec(default, _MISSING if default_factory is None else default_factory)


class _Metadata:
    """``__dataclass_fields__`` or ``__dataclass_params__``, made by ``dataclasses`` when
    first read (a descriptor on the class, replaced by the value it made)."""

    def __init__(self, defaults: dict[str, object], frozen: bool) -> None:
        self._defaults = defaults
        self._frozen = frozen

    def __get__(self, instance: object, owner: type) -> Any:
        import dataclasses

        record = self._record  # (owner may be a subclass: it inherits the record's)
        namespace: dict[str, object] = {
            "__module__": record.__module__,
            "__qualname__": record.__qualname__,
            "__annotations__": record.__annotations__,
            "__doc__": "fields",  # (without one, dataclasses would compute a signature)
        }
        for name, default in self._defaults.items():
            if isinstance(default, _FieldSpec):
                default = (
                    dataclasses.field(default_factory=default.default_factory)  # type: ignore[call-overload]
                    if default.default is _MISSING
                    else dataclasses.field(default=default.default)
                )
            namespace[name] = default
        made: Any = dataclasses.dataclass(frozen=self._frozen, slots=True)(
            type(record.__name__, (), namespace)
        )
        type.__setattr__(record, "__dataclass_fields__", made.__dataclass_fields__)
        type.__setattr__(record, "__dataclass_params__", made.__dataclass_params__)
        return getattr(owner, self._name)

    def __set_name__(self, owner: type, name: str) -> None:
        self._record = owner
        self._name = name


_RECORDS: dict[type, tuple[str, ...]] = {}  # each record class: its field names
# each record class: its fields' values in order (a tuple), and each field's place there
_READERS: dict[type, tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]] = {}


def _reader(names: tuple[str, ...]) -> tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]:
    if len(names) > 1:
        values: Callable[[Any], tuple[Any, ...]] = attrgetter(*names)
    else:  # attrgetter gives one name's value alone, and needs a name
        values = lambda obj: tuple(getattr(obj, name) for name in names)  # noqa: E731
    return values, {name: place for place, name in enumerate(names)}


def replace(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace`` without importing ``dataclasses`` for a record: a new record
    with ``changes`` (by field name) and the other fields' values of ``obj``; any other
    dataclass goes to ``dataclasses.replace``.

    A record's fields are read in order at once and passed by place (its ``__init__``
    takes them so): ``dataclasses.replace`` reads and passes each one by name.
    """
    reader = _READERS.get(type(obj))
    if reader is None:
        import dataclasses

        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    values_of, places = reader
    values = list(values_of(obj))
    for name, value in changes.items():
        place = places.get(name)
        if place is None:  # as the constructor says it
            kept = dict(zip(_RECORDS[type(obj)], values, strict=True))
            return type(obj)(**{**kept, **changes})
        values[place] = value
    return type(obj)(*values)


def _frozen_error(message: str) -> Exception:
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)


@overload
def record(cls: type[_T], /) -> type[_T]: ...
@overload
def record(*, frozen: bool = True) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[_T] | None = None, /, *, frozen: bool = True) -> Any:
    """Make ``cls`` a slotted record: frozen unless ``frozen=False`` (module notes)."""
    if cls is None:
        return lambda cls: _make(cls, frozen)
    return _make(cls, frozen)


def _make(cls: type[_T], frozen: bool) -> type[_T]:
    body = dict(cls.__dict__)
    if cls.__bases__ != (object,) or "__post_init__" in body or "__slots__" in body:
        raise TypeError(
            f"{cls.__qualname__}: a record has no base class, __slots__ or __post_init__"
        )
    if any(
        "__class__" in getattr(getattr(v, "__code__", None), "co_freevars", ())
        for v in body.values()
    ):
        # super() or __class__ in a method would name the class the decorator replaces
        raise TypeError(f"{cls.__qualname__}: a record's methods use neither super() nor __class__")
    if body.get("__doc__") is None:  # (dataclasses would write the signature there)
        raise TypeError(f"{cls.__qualname__}: a record says what it is in a docstring")
    names = tuple(body.get("__annotations__", {}))
    if any(
        str(kind).startswith(("ClassVar", "InitVar"))
        for kind in body.get("__annotations__", {}).values()
    ):
        raise TypeError(f"{cls.__qualname__}: ClassVar and InitVar fields are not supported")
    defaults = {name: body.pop(name) for name in names if name in body}
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    body["__slots__"] = names
    body.setdefault("__match_args__", names)
    made: Any = type(cls.__name__, (), body)
    made.__qualname__ = cls.__qualname__

    namespace: dict[str, object] = {
        "_HAS_FACTORY": _HAS_FACTORY,
        "_RECORD": made,
        # The record's twin: a mutable class of the same slots (the same layout), which
        # __init__ gives the new record while it sets the slots (see _init_code).
        "_TWIN": _twin(made, names),
        "_set_class": object.__setattr__,
    }
    factories: list[int] = []
    values: list[object] = []  # the defaults, from the first field that has one
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = made.__dict__[name].__set__
        default = defaults.get(name, _MISSING)
        if isinstance(default, _FieldSpec):
            if default.default_factory is not _MISSING:
                namespace[f"_factory{i}"] = default.default_factory
                factories.append(i)
                default = _HAS_FACTORY
            else:
                default = default.default
        if default is not _MISSING:
            values.append(default)
        elif values:
            raise TypeError(f"non-default argument {name!r} follows default argument")
    code = _init_code(len(names), tuple(factories), frozen)
    # The shape's code, with this record's field names as parameters and slots.
    slots = {f"_f{i}": name for i, name in enumerate(names)}
    code = code.replace(
        co_varnames=("self", *names), co_names=tuple(slots.get(n, n) for n in code.co_names)
    )
    init: Any = FunctionType(code, namespace, "__init__", tuple(values) or None)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {**body.get("__annotations__", {}), "return": None}
    methods: dict[str, Any] = {"__init__": init, **_methods(made, names, frozen)}
    for name, method in methods.items():
        if name not in body or (name == "__hash__" and body[name] is None):
            if callable(method) and name != "__init__":
                method.__annotations__ = {}  # as dataclasses writes them
                wrapped = getattr(method, "__wrapped__", None)  # (recursive_repr's, 3.12+)
                if wrapped is not None:
                    wrapped.__annotations__ = {}
                method.__name__ = name
                method.__module__ = cls.__module__  # help() finds the inherited docstrings
                method.__qualname__ = f"{cls.__qualname__}.{name}"
            type.__setattr__(made, name, method)
    _RECORDS[made] = names
    _READERS[made] = _reader(names)
    for name in ("__dataclass_fields__", "__dataclass_params__"):
        metadata = _Metadata(defaults, frozen)
        metadata.__set_name__(made, name)
        type.__setattr__(made, name, metadata)
    return made  # type: ignore[no-any-return]


_TWINS: dict[type, type] = {}  # each frozen record class: its twin


def _twin(made: type, names: tuple[str, ...]) -> type:
    # A mutable class of the record's slots (the same layout): a new record is of this
    # class while its slots are stored (see _init_code).
    twin = _TWINS[made] = type(f"_{made.__name__}Twin", (), {"__slots__": names})
    return twin


def maker(cls: type[_T]) -> Callable[..., _T]:
    """A function that makes a record of ``cls`` from all its fields, positional and in
    order: what ``cls(*fields)`` makes, without the call through the class and the test of
    the instance's class (a third less time for a ``Url``). For the pipeline's hot loop;
    no defaults, no keywords.
    """
    names = _RECORDS[cls]
    code = _MAKER_CODE.get(len(names))
    if code is None:
        params = ", ".join(f"a{i}" for i in range(len(names)))
        lines = [
            "    self = _new(_CLASS)",
            *[f"    self._f{i} = a{i}" for i in range(len(names))],
            "    if _CLASS is not _RECORD:",
            "        self.__class__ = _RECORD",
            "    return self",
        ]
        namespace: dict[str, Any] = {}
        exec(f"def make({params}):\n" + "\n".join(lines), namespace)
        code = _MAKER_CODE[len(names)] = namespace["make"].__code__
    slots = {f"_f{i}": name for i, name in enumerate(names)}
    code = code.replace(co_names=tuple(slots.get(n, n) for n in code.co_names))
    made: Any = FunctionType(
        code, {"_new": object.__new__, "_CLASS": _TWINS.get(cls, cls), "_RECORD": cls}, "make"
    )
    made.__qualname__ = f"maker({cls.__qualname__})"
    return made  # type: ignore[no-any-return]


_MAKER_CODE: dict[int, CodeType] = {}

_INIT_CODE: dict[tuple[int, tuple[int, ...], bool], CodeType] = {}


def _init_code(count: int, factories: tuple[int, ...], frozen: bool) -> CodeType:
    # The code of an __init__ that sets ``count`` slots (the parameters ``a0``... into the
    # slots ``_f0``..., renamed per record; a field with a default factory calls
    # ``_factoryI`` for the _HAS_FACTORY default), compiled once per shape. (Compiling one
    # per record was 0.1-0.2 ms each.)
    #
    # A mutable record sets its slots as a class's __init__ does. A frozen one refuses
    # assignment, so its slots are set while the new record is of its twin class (the
    # same slots, no refusal; __class__ assignment between classes of one layout), one
    # plain slot store each: a third of the time of a call to each slot's descriptor
    # (``_setI(self, aI)``), which stays for an instance of a subclass (whose layout may
    # differ). Url's construction is a tenth of a mail scan's Python work.
    key = (count, factories, frozen)
    code = _INIT_CODE.get(key)
    if code is None:
        values = [
            f"_factory{i}() if a{i} is _HAS_FACTORY else a{i}" if i in factories else f"a{i}"
            for i in range(count)
        ]
        if not frozen or not count:
            lines = [f"    self._f{i} = {value}" for i, value in enumerate(values)]
        else:
            # The factories are called first: a record left of its twin class by one
            # that raises would be a mutable record.
            lines = [f"    a{i} = {values[i]}" for i in factories]
            lines += [
                "    if type(self) is _RECORD:",
                "        _set_class(self, '__class__', _TWIN)",
                *[f"        self._f{i} = a{i}" for i in range(count)],
                "        self.__class__ = _RECORD",
                "    else:",
                *[f"        _set{i}(self, a{i})" for i in range(count)],
            ]
        params = "".join(f", a{i}" for i in range(count))
        namespace: dict[str, Any] = {}
        exec(f"def __init__(self{params}):\n" + "\n".join(lines or ["    pass"]), namespace)
        code = _INIT_CODE[key] = namespace["__init__"].__code__
    return code


def _methods(cls: type, names: tuple[str, ...], frozen: bool) -> dict[str, Any]:
    # The methods dataclasses would write for a record of these fields, as closures.
    getter: Any = attrgetter(*names) if names else (lambda self: ())
    values: Callable[[object], tuple[object, ...]] = getter
    if len(names) == 1:  # attrgetter of one name gives the value: a tuple, as dataclasses

        def values(self: object) -> tuple[object, ...]:
            return (getter(self),)

    shown = [f"{name}=" for name in names]

    @recursive_repr()
    def repr_(self: object) -> str:
        fields = ", ".join(
            label + repr(value) for label, value in zip(shown, values(self), strict=True)
        )
        return f"{self.__class__.__qualname__}({fields})"

    def eq_(self: object, other: object) -> object:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def replace_(self: object, /, **changes: Any) -> object:
        return replace(self, **changes)

    # __replace__: copy.replace (Python 3.13) takes a record as a dataclass.
    methods: dict[str, Any] = {"__repr__": repr_, "__eq__": eq_, "__replace__": replace_}
    if not frozen:
        methods["__hash__"] = None
        return methods
    fieldset = frozenset(names)
    owner: Any = cls  # (mypy would narrow cls below)

    def hash_(self: object) -> int:
        return hash(values(self))

    def setattr_(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in fieldset:
            raise _frozen_error(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def delattr_(self: object, name: str) -> None:
        if type(self) is cls or name in fieldset:
            raise _frozen_error(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    def getstate_(self: object) -> list[object]:
        return list(values(self))

    def setstate_(self: object, state: list[object]) -> None:
        for name, value in zip(names, state, strict=False):
            object.__setattr__(self, name, value)

    methods.update(
        __hash__=hash_,
        __setattr__=setattr_,
        __delattr__=delattr_,
        __getstate__=getstate_,
        __setstate__=setstate_,
    )
    return methods
