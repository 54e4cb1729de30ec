err := errors.New("fatal: configuration missing")
if err != nil {
	panic(err)
}
