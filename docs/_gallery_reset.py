"""Start each gallery example as a fresh session, as a reader's own script starts.

sphinx-gallery runs every example in one process; without this, the
privacy budget one example spends (the session ledger) and its audit log
would carry into the next, and a differentially private example late in
the gallery would find its budget already spent.
"""


def reset_session(gallery_conf, fname):
    """Empty the session ledger and the audit log and reload the policy."""
    import safeplot.audit
    import safeplot.ledger
    import safeplot.policy

    safeplot.ledger._reset()
    safeplot.audit.clear()
    safeplot.policy._reset()
