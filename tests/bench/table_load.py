"""The table scenario of the load benchmark (filled in once live play has landed)."""


async def run_tables(servers, tables, seconds):
    raise NotImplementedError
