from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        from axes.signals import user_locked_out

        from api.lockout import refuse_api_sign_in

        user_locked_out.connect(refuse_api_sign_in, dispatch_uid="api-sign-in-locked-out")
