"""The three-way merge of one field, and of the item's own fields, field by field."""

from collections.abc import Set
from typing import Any, Literal

from django import forms
from django.db.models import Model
from django.utils.datastructures import MultiValueDict
from django.utils.text import capfirst

from ..diff import Names, Snapshot
from .result import Conflict, Merge
from .values import UNKNOWN, Value, canon, put, show

# Evidence (vendors/admin/evidence.py) is kept as submitted: its citations are rows of their
# own in a revision, and a save writes only the citations the row still cites.
SKIP_FIELDS = {"revision_comment", "opened_revision", "evidence"}

# Who changed a field since the base: nobody, they, you, both (to the same value), or both
# to different values.
Outcome = Literal["", "theirs", "yours", "both", "conflict"]


def model_label(model: type[Model]) -> str:
    """ "vendors.vendor", as a revision's snapshot names the model's rows."""
    return f"{model._meta.app_label}.{model._meta.model_name}"


class Rebase:
    """One submission being rebased: the merge it fills, the base revision (None when it is
    gone) and the uploaded files."""

    def __init__(self, merge: Merge, base: Snapshot | None, files: MultiValueDict[str, Any]) -> None:
        self.merge, self.base, self.files, self.names = merge, base, files, Names()

    def own_fields(self, obj: Model, form_class: type[forms.ModelForm]) -> None:
        """The item's own fields: each merged on its own (see ``field``), and noted by who
        changed it."""
        pk = str(obj.pk)
        base_root = self.base.get(model_label(type(obj)), {}).get(pk) if self.base is not None else None
        theirs_form = form_class(instance=obj)
        base_form = self.form_at_base(form_class, type(obj), base_root, pk) if base_root else None
        for name, form_field in form_class.base_fields.items():
            if name in SKIP_FIELDS:
                continue
            where = capfirst(str(form_field.label or name))
            outcome = self.field(
                form_field,
                key=name,
                where=where,
                theirs=theirs_form[name].value(),
                base=base_form[name].value() if base_form is not None else UNKNOWN,
            )
            self.note({outcome}, where)

    def field(
        self,
        form_field: forms.Field,
        *,
        key: str,
        where: str,
        theirs: Value,
        base: Value,
        prefix: str | None = None,
        index: int | None = None,
        name: str | None = None,
    ) -> Outcome:
        """Merge one submitted field into the rebased data: yours where only you changed it,
        theirs where only they did, a conflict where you both did, differently.

        Returns who changed it since the base. ``base`` is UNKNOWN when the base is gone.
        """
        if isinstance(form_field, forms.FileField):
            return "yours" if self.files.get(key) else ""  # an upload is yours; none keeps what is saved
        submitted = form_field.widget.value_from_datadict(self.merge.data, self.files, key)
        yours, theirs_c = canon(form_field, submitted), canon(form_field, theirs)
        base_c = UNKNOWN if base is UNKNOWN else canon(form_field, base)
        if yours == theirs_c:
            return "" if theirs_c == base_c else "both"
        if yours == base_c:
            put(self.merge.data, key, form_field, theirs)  # your form still held the old value
            return "theirs"
        if theirs_c == base_c:
            return "yours"
        conflict = Conflict(
            where=where,
            theirs=show(form_field, theirs),
            yours=show(form_field, submitted),
            prefix=prefix,
            index=index,
            name=name or key,
        )
        self.merge.conflicts.append(conflict)
        return "conflict"

    def note(self, outcomes: Set[Outcome], where: str) -> None:
        """Note ``where`` among what you changed, what they changed, or both."""
        if outcomes & {"yours", "both"}:
            self.merge.yours.append(where)
        if outcomes & {"theirs", "both"}:
            self.merge.theirs.append(where)

    def form_at_base(
        self, form_class: type[forms.ModelForm], model: type[Model], fields: dict[str, Any], pk: str
    ) -> forms.ModelForm:
        """An unbound ``form_class`` showing the row as it was in the base revision.

        Its instance is an unsaved copy of the row, so the form reads nothing from the
        database: its many-to-many values come from the revision below.
        """
        concrete = {f.attname for f in model._meta.concrete_fields} - {model._meta.pk.attname}
        instance = model(**{k: v for k, v in fields.items() if k in concrete})
        initial = {
            m2m.name: self._related_at_base(m2m, pk)
            for m2m in model._meta.many_to_many
            if m2m.name in form_class.base_fields  # citations are rows of their own in a revision
        }
        return form_class(instance=instance, initial=initial)

    def _related_at_base(self, m2m: Any, pk: str) -> list[Any]:
        """The keys the row ``pk`` pointed at through ``m2m`` in the base revision."""
        through = m2m.remote_field.through
        own = through._meta.get_field(m2m.m2m_field_name()).attname
        other = through._meta.get_field(m2m.m2m_reverse_field_name()).attname
        rows = (self.base or {}).get(model_label(through), {}).values()
        return [r[other] for r in rows if str(r.get(own)) == pk]
