// Placeholder: being written (run folders read back).
