from django.urls import path

from floor.compliance import filing, prizes, views

urlpatterns = [
    path("", views.today, name="compliance"),
    path("ctrs/", filing.ctr_list, name="ctrs"),
    path("ctrs/<int:worksheet_id>/", filing.ctr_worksheet, name="ctr_worksheet"),
    path("sar/", filing.sar_queue, name="sar_queue"),
    path("sar/<int:referral_id>/", filing.sar_referral, name="sar_referral"),
    path("prizes/", prizes.prize_list, name="prize_tax_list"),
    path("prizes.csv", prizes.prize_csv, name="prize_tax_csv"),
    path("<str:gaming_day>/", views.day_page, name="compliance_day"),
    path("<str:gaming_day>/title31.csv", views.day_csv, name="compliance_csv"),
    path("<str:gaming_day>/title31.pdf", views.day_pdf, name="compliance_pdf"),
]
