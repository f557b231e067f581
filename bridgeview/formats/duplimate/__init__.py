"""Files of the Duplimate dealing machines: ``bri`` (BRI, DGE, BRE and DUP, fixed records) and
``dlm`` (DLM, the machine's own text format)."""
