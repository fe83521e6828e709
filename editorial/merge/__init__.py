"""Nobody retypes: a save made after someone else's is merged with theirs, field by field.

The change form carries the revision it was opened at (django-reversion; EditorialForm's
hidden ``opened_revision``). When someone else has saved since, the submitted data is
rebased before the admin binds its forms to it (editorial/workflow/saving.py), as a
three-way merge of

- *base*: the revision the form was opened at (the item and every row it follows),
- *theirs*: what is saved now (the working copy, read under the row lock), and
- *yours*: what the form submits,

for the item's own fields and for each row of each inline, matched by primary key:

- a field only you changed keeps yours; a field only they changed takes theirs (your form
  still held the old value); a field you both changed to the same value is no conflict;
- a field you both changed to different values is a **conflict**: nothing is saved, the
  form is shown again with both values beside the field and your input kept, and it now
  carries the current revision, so saving again applies yours on purpose;
- rows they added stay; rows you added are added;
- a row they deleted that you left as it was stays deleted; a row they deleted that you
  edited is a conflict: the form shows your row again as a new row, so saving again keeps
  your edit (tick Delete to let their delete stand); a row you both deleted is gone;
- a row you deleted that they edited is a conflict: Delete stays ticked, so saving again
  deletes it on purpose (untick it to keep their edit).

File uploads are not merged: an upload is always yours, no upload keeps what is saved.
"""

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from django import forms
from django.db.models import Model
from django.forms import BaseFormSet
from django.http import QueryDict
from django.utils.datastructures import MultiValueDict
from django.utils.text import capfirst
from reversion.models import Version

from .diff import KINDS, Kind, Names, _row_label, snapshot, version_chain
from .presence import clock

# Evidence (vendors/admin/evidence.py) is kept as submitted: its citations are rows of their
# own in a revision, and a save writes only the citations the row still cites.
SKIP_FIELDS = {"revision_comment", "opened_revision", "evidence"}
SHOWN = 80  # a longer value is shown cut, with an ellipsis


@dataclass
class Conflict:
    where: str  # "Summary", "Memory — Value"
    theirs: str
    yours: str
    prefix: str | None = None  # the inline's prefix, None for the item's own field
    index: int | None = None  # the row's index in the rebased form
    name: str | None = None  # the field; None for a whole row (deleted on one side)

    def text(self, by):
        return f"Saved by {by}: {self.theirs} · Yours: {self.yours}"


@dataclass
class Merge:
    """What rebasing one submitted change form onto the current working copy found."""

    data: object  # the rebased POST data (a QueryDict)
    by: str  # "editor2 at 19:13", who saved since the form was opened, and when
    who: str
    at: str
    theirs: list = field(default_factory=list)  # labels of what they changed
    yours: list = field(default_factory=list)  # labels of what you changed
    conflicts: list = field(default_factory=list)

    def message(self):
        """“Merged with editor2's save of 19:13: they changed Memory, you changed Pricing.”"""
        theirs = _and(self.theirs) or "nothing you see"
        yours = _and(self.yours) or "nothing"
        return f"Merged with {self.who}'s save of {self.at}: they changed {theirs}, you changed {yours}."

    def conflict_message(self):
        where = _and(c.where for c in self.conflicts)
        return (
            f"{self.who} saved this at {self.at}, after you opened it, and you both changed {where}: "
            "their value and yours are shown there. Everything else is merged, and your input is kept: "
            "save again to apply yours."
        )

    def errors_for(self, prefix, index):
        """{field name or None: text} for one row of an inline (or, with prefix None, the item)."""
        return {c.name: c.text(self.by) for c in self.conflicts if c.prefix == prefix and c.index == index}


def _and(labels):
    labels = list(dict.fromkeys(labels))
    if len(labels) <= 1:
        return "".join(labels)
    return f"{', '.join(labels[:-1])} and {labels[-1]}"


def merge_submission(
    *,
    obj: Model,
    opened: int,
    current: int,
    submitted: QueryDict,
    files: MultiValueDict,
    form_class: type[forms.ModelForm],
    inline_formsets: Iterable[tuple[str, BaseFormSet]],
) -> Merge:
    """Rebase ``submitted``, a change form opened at revision ``opened``, onto ``obj`` as saved at
    ``current`` (read under the row lock).

    ``form_class`` is the item's form, ``inline_formsets`` each inline's prefix and unbound
    formset showing its rows as saved now. ``submitted`` is left as it is: the merged data is
    a new QueryDict, which carries ``current`` as the revision it was opened at.
    """
    newer = version_chain(obj, after=opened)
    users = list(dict.fromkeys(str(v.revision.user) if v.revision.user else "someone" for v in newer))
    who = _and(users) or "someone"
    at = clock(newer[-1].revision.date_created) if newer else ""
    merge = Merge(data=submitted.copy(), by=f"{who} at {at}" if at else who, who=who, at=at or "just now")
    base = snapshot(opened) if _is_version_of(obj, opened) else None
    rebase = _Rebase(merge, base, files)

    label = _label(type(obj))
    base_root = base.get(label, {}).get(str(obj.pk)) if base is not None else None
    theirs_form = form_class(instance=obj)
    base_form = rebase.form_at_base(form_class, type(obj), base_root, str(obj.pk)) if base_root else None
    for name, form_field in form_class.base_fields.items():
        if name in SKIP_FIELDS:
            continue
        where = capfirst(str(form_field.label or name))
        outcome = rebase.field(
            form_field,
            key=name,
            where=where,
            theirs=theirs_form[name].value(),
            base=base_form[name].value() if base_form else _UNKNOWN,
        )
        if outcome in ("yours", "both"):
            merge.yours.append(where)
        if outcome in ("theirs", "both"):
            merge.theirs.append(where)

    for prefix, theirs_formset in inline_formsets:
        if f"{prefix}-TOTAL_FORMS" in merge.data:
            rebase.inline(theirs_formset, prefix)

    merge.data["opened_revision"] = str(current)
    return merge


_UNKNOWN = object()  # the revision the form was opened at is gone (pruned): every difference conflicts


def _is_version_of(obj, version_id):
    """Whether ``version_id`` is one of ``obj``'s revisions (and not pruned, nor forged)."""
    return bool(version_id) and Version.objects.get_for_object(obj).filter(pk=version_id).exists()


def _label(model):
    return f"{model._meta.app_label}.{model._meta.model_name}"


class _Rebase:
    def __init__(self, merge, base, files):
        self.merge, self.base, self.files, self.names = merge, base, files, Names()

    def field(self, form_field, *, key, where, theirs, base, prefix=None, index=None, name=None):
        """Merge one submitted field into the rebased data. Returns who changed it since the
        base: "", "theirs", "yours", "both" (to the same value) or "conflict"."""
        if isinstance(form_field, forms.FileField):
            return "yours" if self.files.get(key) else ""  # an upload is yours; none keeps what is saved
        data = self.merge.data
        submitted = form_field.widget.value_from_datadict(data, self.files, key)
        yours, theirs_c = _canon(form_field, submitted), _canon(form_field, theirs)
        base_c = _UNKNOWN if base is _UNKNOWN else _canon(form_field, base)
        if yours == theirs_c:
            return "" if theirs_c == base_c else "both"
        if yours == base_c:
            _put(data, key, form_field, theirs)  # your form still held the old value
            return "theirs"
        if theirs_c == base_c:
            return "yours"
        self.merge.conflicts.append(
            Conflict(
                where=where,
                theirs=self._show(form_field, theirs),
                yours=self._show(form_field, submitted),
                prefix=prefix,
                index=index,
                name=name or key,
            )
        )
        return "conflict"

    def _show(self, form_field, value):
        if isinstance(form_field, forms.ModelMultipleChoiceField):
            keys = _canon(form_field, value)
            objects = form_field.queryset.filter(pk__in=keys) if keys else []
            return ", ".join(str(o) for o in objects) or "none"
        if isinstance(form_field, forms.ModelChoiceField):
            key = _canon(form_field, value)
            found = form_field.queryset.filter(pk=key).first() if key else None
            return str(found) if found else "none"
        if isinstance(form_field, forms.BooleanField):
            return "yes" if _canon(form_field, value) else "no"
        text = "" if value is None else str(value).strip()
        if not text:
            return "empty"
        return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"

    def form_at_base(self, form_class, model, fields, pk):
        """An unbound ``form_class`` showing the row as it was in the base revision.

        Its instance is an unsaved copy of the row, so the form reads nothing from the
        database: its many-to-many values come from the revision below.
        """
        concrete = {f.attname for f in model._meta.concrete_fields} - {model._meta.pk.attname}
        instance = model(**{k: v for k, v in fields.items() if k in concrete})
        initial = {}
        for m2m in model._meta.many_to_many:
            if m2m.name in form_class.base_fields:  # citations are rows of their own in a revision
                through = m2m.remote_field.through
                own = through._meta.get_field(m2m.m2m_field_name()).attname
                other = through._meta.get_field(m2m.m2m_reverse_field_name()).attname
                rows = self.base.get(_label(through), {}).values()
                initial[m2m.name] = [r[other] for r in rows if str(r.get(own)) == pk]
        return form_class(instance=instance, initial=initial)

    def inline(self, theirs_formset, prefix):
        data, merge = self.merge.data, self.merge
        model = theirs_formset.model
        label = _label(model)
        kind = KINDS.get(label, Kind(model._meta.verbose_name.capitalize(), "id"))
        pk_name = model._meta.pk.name
        form_class = theirs_formset.form
        fields = {n: f for n, f in form_class.base_fields.items() if n not in SKIP_FIELDS}
        theirs = {str(form.instance.pk): form for form in theirs_formset.initial_forms}
        if kind.label.startswith("ref:"):  # rows name themselves after what they point at
            ref = model._meta.get_field(kind.label[4:])
            for form in theirs.values():
                self.names.know(
                    ref.related_model, getattr(form.instance, ref.attname), form.instance, ref.name
                )
        base_rows = self.base.get(label, {}) if self.base is not None else None
        initial_count = int(data.get(f"{prefix}-INITIAL_FORMS") or 0)
        kept, revived, added = [], [], []
        for i, row in enumerate(_rows(data, prefix)):
            pk = (row.get(pk_name) or [""])[0] if i < initial_count else ""
            if not pk:
                added.append(row)
                continue
            deleted_by_you = _ticked(row.get("DELETE"))
            base_fields = base_rows.get(pk) if base_rows is not None else None
            base_form = self.form_at_base(form_class, model, base_fields, pk) if base_fields else None
            where = self._row_name(model, kind, base_fields, theirs.get(pk))
            if pk not in theirs:  # deleted since the form was opened
                if deleted_by_you:
                    continue
                edited = base_form is None or any(
                    _canon(f, _from_row(f, row, n)) != _canon(f, base_form[n].value())
                    for n, f in fields.items()
                    if not isinstance(f, forms.FileField)
                )
                if not edited:
                    merge.theirs.append(f"deleted {where}")
                    continue
                row.pop(pk_name, None)
                revived.append(row)
                merge.conflicts.append(
                    Conflict(where=where, theirs="deleted", yours="edited, kept as a new row", prefix=prefix)
                )
                continue
            position = len(kept)
            theirs_form = theirs[pk]
            if deleted_by_you:
                they_edited = base_form is None or any(
                    _canon(f, theirs_form[n].value()) != _canon(f, base_form[n].value())
                    for n, f in fields.items()
                    if not isinstance(f, forms.FileField)
                )
                kept.append(row)
                if they_edited:
                    merge.conflicts.append(
                        Conflict(where=where, theirs="edited", yours="deleted", prefix=prefix, index=position)
                    )
                else:
                    merge.yours.append(f"deleted {where}")
                continue
            outcomes = {
                self.field(
                    form_field,
                    key=f"{prefix}-{i}-{name}",
                    where=f"{where} — {form_field.label or name}",
                    theirs=theirs_form[name].value(),
                    base=base_form[name].value() if base_form is not None else _UNKNOWN,
                    prefix=prefix,
                    index=position,
                    name=name,
                )
                for name, form_field in fields.items()
            }
            if outcomes & {"yours", "both"}:
                merge.yours.append(where)
            if outcomes & {"theirs", "both"}:
                merge.theirs.append(where)
            start = f"{prefix}-{i}-"
            kept.append({key[len(start) :]: data.getlist(key) for key in data if key.startswith(start)})
        for pk, form in theirs.items():
            if base_rows is not None and pk not in base_rows:
                merge.theirs.append(f"added {self._row_name(model, kind, None, form)}")
        for row in added:
            if any(any(v for v in values) for name, values in row.items() if name in fields):
                merge.yours.append(f"added {kind.noun or model._meta.verbose_name}")
        revived_conflicts = [c for c in merge.conflicts if c.prefix == prefix and c.index is None]
        for n, conflict in enumerate(revived_conflicts):
            conflict.index = len(kept) + n
        _write_rows(data, prefix, kept, revived + added, initial=len(kept))

    def _row_name(self, model, kind, base_fields, theirs_form):
        fields = base_fields
        if fields is None and theirs_form is not None:
            instance = theirs_form.instance
            fields = {f.attname: getattr(instance, f.attname) for f in model._meta.concrete_fields}
        if not fields:
            return kind.noun or model._meta.verbose_name
        name = _row_label(model, kind, fields, self.names)
        return f"{kind.noun} {name}".strip() if kind.noun else name


def _rows(data, prefix):
    """[{field: [values]}] for every row of the inline ``prefix`` in ``data``, by index."""
    total = int(data.get(f"{prefix}-TOTAL_FORMS") or 0)
    rows = [{} for _ in range(total)]
    start = f"{prefix}-"
    for key in data:
        if not key.startswith(start):
            continue
        index, _, name = key[len(start) :].partition("-")
        if index.isdigit() and int(index) < total and name:
            rows[int(index)][name] = data.getlist(key)
    return rows


def _write_rows(data, prefix, existing, new, *, initial):
    total = int(data.get(f"{prefix}-TOTAL_FORMS") or 0)
    for i in range(total):
        for key in [k for k in data if k.startswith(f"{prefix}-{i}-")]:
            del data[key]
    for i, row in enumerate([*existing, *new]):
        for name, values in row.items():
            data.setlist(f"{prefix}-{i}-{name}", values)
    data[f"{prefix}-TOTAL_FORMS"] = str(len(existing) + len(new))
    data[f"{prefix}-INITIAL_FORMS"] = str(initial)


def _from_row(form_field, row, name):
    values = row.get(name, [])
    if isinstance(form_field, forms.ModelMultipleChoiceField):
        return values
    if isinstance(form_field.widget, forms.CheckboxInput):
        return _ticked(values)
    return values[0] if values else None


def _ticked(values):
    return bool(values) and values[-1] not in ("", "off", "false", "False", "0")


def _canon(form_field, value):
    """A value in one form, whether submitted text, a form's initial value or a model's."""
    if isinstance(form_field, forms.ModelMultipleChoiceField):
        return frozenset(str(getattr(v, "pk", v)) for v in (value or []) if v not in ("", None))
    if isinstance(form_field, forms.ModelChoiceField):
        value = getattr(value, "pk", value)
        return "" if value in (None, "") else str(value)
    if isinstance(form_field, forms.BooleanField):
        return _ticked([value]) if isinstance(value, str) else bool(value)
    with contextlib.suppress(forms.ValidationError):
        value = form_field.clean(value)
    if isinstance(value, str):
        return value.replace("\r\n", "\n").strip()
    return "" if value is None else value


def _put(data, key, form_field, value):
    """Put a form's value (its initial, as BoundField.value() gives it) into submitted data."""
    if isinstance(form_field, forms.ModelMultipleChoiceField):
        data.setlist(key, [str(getattr(v, "pk", v)) for v in value or []])
    elif isinstance(form_field.widget, forms.CheckboxInput):
        if value:
            data[key] = "on"
        else:
            data.pop(key, None)
    elif isinstance(form_field, forms.ModelChoiceField):
        value = getattr(value, "pk", value)
        data[key] = "" if value is None else str(value)
    else:
        data[key] = "" if value is None else str(value)
