"""Tests of the knowledge base, the rag_knowledge tool and the knowledge panel."""
