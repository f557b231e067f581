"""Hand records on paper: the PDF and printer painter and its preview.

- ``hand_records.py``: paints ``handrecords.content`` (shared with the HTML page) into a PDF or onto a
  printer; ``bridgeview print`` uses it too;
- ``print_preview.py``: File › Print Hand Records… › Print Preview….
"""
