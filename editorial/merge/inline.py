"""The rows of one inline, matched by primary key and rebased row by row.

A row saved when the form was opened is either deleted by them since, deleted by you (Delete
ticked), or kept by both and merged field by field. Rows either side added are kept. The
rebased rows are written back into the data in the order a formset expects: the rows saved
now first, then the rows that come back or are new.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db.models import ForeignKey, Model
from django.forms.models import BaseModelFormSet
from django.http import QueryDict

from ..diff import KINDS, Kind, _row_label
from .rebase import SKIP_FIELDS, Rebase, model_label
from .result import Conflict
from .values import UNKNOWN, Value, canon, from_row, ticked

RowData = dict[str, list[str]]  # {field name: [values]} as one inline row was submitted


@dataclass
class _Row:
    """A submitted row that was saved when the form was opened."""

    index: int  # its index in the submitted formset
    pk: str
    values: RowData
    base: forms.ModelForm | None  # the row as it was at the base; None when that is unknown
    where: str  # the row as messages name it: "Memory", "Score Software"


class InlineRebase:
    """Rebases the rows of one inline (its formset ``prefix``) onto the rows saved now."""

    def __init__(self, rebase: Rebase, theirs_formset: BaseModelFormSet, prefix: str) -> None:
        self.rebase, self.merge, self.data, self.prefix = rebase, rebase.merge, rebase.merge.data, prefix
        if theirs_formset.model is None:  # every inline formset has one (inlineformset_factory)
            raise ValueError(f"The inline {prefix!r} has no model.")
        self.model: type[Model] = theirs_formset.model
        label = model_label(self.model)
        self.kind = KINDS.get(label, Kind(_verbose_name(self.model).capitalize(), "id"))
        self.pk_name = self.model._meta.pk.name
        self.form_class: type[forms.ModelForm] = theirs_formset.form
        self.fields = {n: f for n, f in self.form_class.base_fields.items() if n not in SKIP_FIELDS}
        self.theirs = {str(form.instance.pk): form for form in theirs_formset.initial_forms}
        # What the inline fills in on the empty rows it offers (a Score row's axis): not an edit.
        self.offered = {name for initial in theirs_formset.initial_extra or [] for name in initial}
        self.base_rows = rebase.base.get(label, {}) if rebase.base is not None else None
        self.kept: list[RowData] = []  # rows saved now, in the rebased formset's order
        self.revived: list[RowData] = []  # rows they deleted and you edited, back as new rows
        self.added: list[RowData] = []  # rows you added

    def run(self) -> None:
        """Rebase every submitted row, note what each side added, and write the rows back."""
        self._learn_names()
        initial = int(self.data.get(f"{self.prefix}-INITIAL_FORMS") or 0)
        for index, values in enumerate(read_rows(self.data, self.prefix)):
            pk = (values.get(self.pk_name) or [""])[0] if index < initial else ""
            if pk:
                self._rebase_row(self._row(index, pk, values))
            else:
                self.added.append(values)
        self._note_rows_they_added()
        self._note_rows_you_added()
        self._place_revived_conflicts()
        write_rows(self.data, self.prefix, self.kept, [*self.revived, *self.added], initial=len(self.kept))

    def _learn_names(self) -> None:
        """Rows named after what they point at ("ref:<field>") learn those names from the rows
        saved now, which have them loaded, sparing a query per row."""
        if not self.kind.label.startswith("ref:"):
            return
        ref = self.model._meta.get_field(self.kind.label[4:])
        if not isinstance(ref, ForeignKey):  # a Kind's "ref:" names a foreign key
            return
        for form in self.theirs.values():
            instance = form.instance
            self.rebase.names.know(ref.related_model, getattr(instance, ref.attname), instance, ref.name)

    def _row(self, index: int, pk: str, values: RowData) -> _Row:
        """A submitted row with what the merge compares it to: the row at the base, and its name."""
        base_fields = self.base_rows.get(pk) if self.base_rows is not None else None
        base = self.rebase.form_at_base(self.form_class, self.model, base_fields, pk) if base_fields else None
        return _Row(index, pk, values, base, self._row_name(base_fields, self.theirs.get(pk)))

    def _rebase_row(self, row: _Row) -> None:
        """Send a row saved at the base to its case: deleted by them, deleted by you, or kept."""
        if row.pk not in self.theirs:
            self._they_deleted(row)
        elif ticked(row.values.get("DELETE", [])):
            self._you_deleted(row, self.theirs[row.pk])
        else:
            self._both_kept(row, self.theirs[row.pk])

    def _they_deleted(self, row: _Row) -> None:
        """They deleted the row since the form was opened. Deleted by you too, it is gone; left
        as it was, their delete stands; edited by you, it is a conflict and comes back as a
        new row, so saving again keeps your edit."""
        if ticked(row.values.get("DELETE", [])):
            return
        if not self._changed_since_base(row, lambda name, f: from_row(f, row.values, name)):
            self.merge.theirs.append(f"deleted {row.where}")
            return
        row.values.pop(self.pk_name, None)
        self.revived.append(row.values)
        conflict = Conflict(
            where=row.where, theirs="deleted", yours="edited, kept as a new row", prefix=self.prefix
        )
        self.merge.conflicts.append(conflict)  # its index is set once the kept rows are counted

    def _you_deleted(self, row: _Row, theirs_form: forms.ModelForm) -> None:
        """You ticked Delete on a row they kept. Not edited by them, your delete stands; edited,
        it is a conflict, and Delete stays ticked so saving again deletes it on purpose."""
        position = len(self.kept)
        they_edited = self._changed_since_base(row, lambda name, f: theirs_form[name].value())
        self.kept.append(row.values)
        if they_edited:
            self.merge.conflicts.append(
                Conflict(
                    where=row.where, theirs="edited", yours="deleted", prefix=self.prefix, index=position
                )
            )
        else:
            self.merge.yours.append(f"deleted {row.where}")

    def _both_kept(self, row: _Row, theirs_form: forms.ModelForm) -> None:
        """A row both sides kept: merged field by field, as the item's own fields are."""
        position = len(self.kept)
        outcomes = {
            self.rebase.field(
                form_field,
                key=f"{self.prefix}-{row.index}-{name}",
                where=f"{row.where} — {form_field.label or name}",
                theirs=theirs_form[name].value(),
                base=row.base[name].value() if row.base is not None else UNKNOWN,
                prefix=self.prefix,
                index=position,
                name=name,
            )
            for name, form_field in self.fields.items()
        }
        self.rebase.note(outcomes, row.where)
        start = f"{self.prefix}-{row.index}-"
        self.kept.append(
            {key[len(start) :]: self.data.getlist(key) for key in self.data if key.startswith(start)}
        )

    def _changed_since_base(self, row: _Row, value_of: Callable[[str, forms.Field], Value]) -> bool:
        """Whether one side's values of the row (``value_of(name, field)``) differ from the
        row at the base, uploads aside. With the base unknown, they do."""
        if row.base is None:
            return True
        return any(
            canon(f, value_of(n, f)) != canon(f, row.base[n].value())
            for n, f in self.fields.items()
            if not isinstance(f, forms.FileField)
        )

    def _note_rows_they_added(self) -> None:
        """Rows saved now that the base did not have were added by them, and stay."""
        for pk, form in self.theirs.items():
            if self.base_rows is not None and pk not in self.base_rows:
                self.merge.theirs.append(f"added {self._row_name(None, form)}")

    def _note_rows_you_added(self) -> None:
        """New rows you filled in are added. An empty row the page offered is no change, though
        it comes back with what the inline filled in (a Score row's axis) and the fields'
        own initial values (a select's first choice)."""
        for values in self.added:
            if any(
                canon(f, from_row(f, values, name)) != canon(f, f.initial)
                for name, f in self.fields.items()
                if name not in self.offered and not isinstance(f, forms.FileField)
            ):
                self.merge.yours.append(f"added {self.kind.noun or _verbose_name(self.model)}")

    def _place_revived_conflicts(self) -> None:
        """Rows that come back follow the kept rows: their conflicts point at where they land."""
        revived = [c for c in self.merge.conflicts if c.prefix == self.prefix and c.index is None]
        for n, conflict in enumerate(revived):
            conflict.index = len(self.kept) + n

    def _row_name(self, base_fields: dict[str, Any] | None, theirs_form: forms.ModelForm | None) -> str:
        """The row as messages name it, from its fields at the base or else as saved now."""
        fields = base_fields
        if fields is None and theirs_form is not None:
            instance = theirs_form.instance
            fields = {f.attname: getattr(instance, f.attname) for f in self.model._meta.concrete_fields}
        if not fields:
            return self.kind.noun or _verbose_name(self.model)
        name = _row_label(self.model, self.kind, fields, self.rebase.names)
        return f"{self.kind.noun} {name}".strip() if self.kind.noun else name


def _verbose_name(model: type[Model]) -> str:
    """The model's name as editors read it, "fact" (Django gives every model one)."""
    return str(model._meta.verbose_name)


def read_rows(data: QueryDict, prefix: str) -> list[RowData]:
    """[{field: [values]}] for every row of the inline ``prefix`` in ``data``, by index."""
    total = int(data.get(f"{prefix}-TOTAL_FORMS") or 0)
    rows: list[RowData] = [{} for _ in range(total)]
    start = f"{prefix}-"
    for key in data:
        if not key.startswith(start):
            continue
        index, _, name = key[len(start) :].partition("-")
        if index.isdigit() and int(index) < total and name:
            rows[int(index)][name] = data.getlist(key)
    return rows


def write_rows(
    data: QueryDict, prefix: str, existing: list[RowData], new: list[RowData], *, initial: int
) -> None:
    """Replace the inline's rows in ``data``: ``existing`` (saved rows) first, then ``new``."""
    total = int(data.get(f"{prefix}-TOTAL_FORMS") or 0)
    for i in range(total):
        for key in [k for k in data if k.startswith(f"{prefix}-{i}-")]:
            del data[key]
    for i, row in enumerate([*existing, *new]):
        for name, values in row.items():
            data.setlist(f"{prefix}-{i}-{name}", values)
    data[f"{prefix}-TOTAL_FORMS"] = str(len(existing) + len(new))
    data[f"{prefix}-INITIAL_FORMS"] = str(initial)
