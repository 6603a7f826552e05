"""Games: each module holds one game's rules as a ``Model``, its closed forms and an
independent simulator written from the rules."""
