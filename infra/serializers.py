"""JSON fixtures that keep every microsecond (format "exactjson", used by backup and restore).

Django's JSON encoder cuts datetimes and times to milliseconds, so a dumpdata/loaddata round
trip changes every timestamp a little; a backup must restore the rows exactly as they were.
"""

import datetime as dt

from django.core.serializers import json as django_json
from django.core.serializers.json import DjangoJSONEncoder


class ExactEncoder(DjangoJSONEncoder):
    def default(self, o):
        if isinstance(o, dt.datetime | dt.time):
            return o.isoformat()
        return super().default(o)


class Serializer(django_json.Serializer):
    # Django's private hook for the encoder, which django-stubs does not declare.
    def _init_options(self):
        self.options.setdefault("cls", ExactEncoder)
        super()._init_options()  # type: ignore[misc]


Deserializer = django_json.Deserializer
