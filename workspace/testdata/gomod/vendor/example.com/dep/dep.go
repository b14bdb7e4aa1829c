package dep

func Vendored() {}
