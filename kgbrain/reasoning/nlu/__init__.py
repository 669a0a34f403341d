"""Reading questions and claim sentences (Russian and English) into typed structures."""
