from django.views.generic import DetailView

from .models import Vendor


class VendorDetailView(DetailView):
    model = Vendor

    def get_queryset(self):
        return Vendor.objects.published().select_related("lane")
