"""Double-dummy analysis in the window: solving off the GUI thread, on a cluster, and into the file.

- ``solver.py``: :class:`DocumentSolver`, a worker thread per tab, the DD grid's and par lines' content,
  Analysis › Solve All Boards and the costly cards of a position;
- ``solved_tables.py``: tables the app solved, written into the file when the user says so;
- ``cluster_solve.py``: Analysis › Solve All Boards on Cluster… (Dask).
"""
