"""CA-Fed (INFOCOM 2023): claims by section (``s3a_*`` for §III-A, ``app_b_*`` for App. B, …)."""
