fmt.Println("starting")
os.Exit(1)
