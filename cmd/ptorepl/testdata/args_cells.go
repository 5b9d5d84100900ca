// Cells reading their arguments.
fmt.Println("cells args:", os.Args[1:])
