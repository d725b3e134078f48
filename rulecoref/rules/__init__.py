"""Rule files: YAML in, validated and ordered passes out."""
