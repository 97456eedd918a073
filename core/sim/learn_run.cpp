// Placeholder: being written (learning runs into run folders).
