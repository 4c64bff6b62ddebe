import ProjectDescription

let project = Project(
    name: "Chat",
    targets: [
        .target(
            name: "Chat",
            destinations: .iOS,
            product: .app,
            bundleId: "com.example.chat",
            deploymentTargets: .iOS("16.4"),
            sources: ["Sources/**"]
        ),
        // .target(name: "Old", deploymentTargets: .iOS("12.0")),
    ]
)
