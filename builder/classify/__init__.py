"""The classify stage (14 topics) and its `train` / `sample` helpers; models live in classifiers.topic."""
