type HTTPError struct {
	Status int
	Path   string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("%d at %s", e.Status, e.Path)
}

func fetch(path string) error {
	if path == "/missing" {
		return &HTTPError{404, path}
	}
	return nil
}

for _, p := range []string{"/ok", "/missing"} {
	err := fetch(p)
	if err == nil {
		fmt.Println(p, "ok")
		continue
	}
	var he *HTTPError
	if errors.As(fmt.Errorf("wrap: %w", err), &he) {
		fmt.Println("http error", he.Status, "-", err)
	}
}
