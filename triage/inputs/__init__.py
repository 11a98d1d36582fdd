"""Reading inputs: paths, directories, archives and compressed files expanded into sources
(:mod:`.sources`), their bytes decompressed and decoded (:mod:`.decode`), followed files
(:mod:`.follow`), the node a bundle's folder names (:mod:`.bundle`), and the block reader that
splits a stream into numbered lines (:mod:`.reader`)."""
