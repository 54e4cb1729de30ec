type Config struct {
	Name string
}

var cfg *Config
fmt.Println("config loaded")
fmt.Println(cfg.Name)
