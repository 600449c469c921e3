# host build rules (placeholder until its owner fills it)
