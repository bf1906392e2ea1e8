"""How chatbot-api reads text: Korean morphemes and lemmas (korean), and names across scripts
(names). Pure functions over kiwipiepy's model, no I/O."""
