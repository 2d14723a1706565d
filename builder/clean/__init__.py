"""The clean stage: PII scrubbing, toxic-dialogue removal, image metadata stripping."""
