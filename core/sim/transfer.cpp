// Placeholder: being written (transfer metrics).
